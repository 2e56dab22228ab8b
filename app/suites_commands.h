#pragma once
// The subcommands' work that needs the table of suites (suites.h), kept out of the command line
// (app/cli/), which only turns flags into the plain structs of these headers and prints what
// their functions give: one header per subcommand. Nothing in them prints.

#include "app/suites_compare.h"
#include "app/suites_history.h"
#include "app/suites_list.h"
#include "app/suites_merge.h"
#include "app/suites_report.h"
#include "app/suites_run.h"
