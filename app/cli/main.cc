// elevbench: which block I/O scheduler is best for this box and this workload?
// A thin main: everything else lives in the elevbench_core library (cli.h).

#include "app/cli/cli.h"

int main(int argc, char** argv) { return elevbench::RunCli(argc, argv); }
