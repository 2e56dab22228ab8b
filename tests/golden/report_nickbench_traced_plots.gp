# trace-time: bench=3: read requests: mean time of a request in the scheduler (I2D, inserted to dispatched) and in the device (D2C, dispatched to completed), ms, over every traced repetition
$time << EOD
"6.18.44-dl" 9.07575562 6.34802827
"6.18.44-as" 21.009204 3.27434091
EOD
set style data histogram
set style histogram rowstacked
set style fill solid 0.75 border -1
set boxwidth 0.6
set key outside right top
set grid ytics
set yrange [0:*]
set ylabel 'ms per request'
plot $time using 2:xtic(1) title 'I2D: in the scheduler', '' using 3 title 'D2C: in the device'

# dispatch-runs: bench=3: read requests: dispatch runs, the fraction of requests dispatched in runs of at most x requests from one stream, over every traced repetition
$runs0 << EOD
1 0.80546875
2 0.946972656
3 1
EOD
$runs1 << EOD
16 0.03359375
32 0.19453125
48 0.534375
64 1
EOD
set logscale x 2
set format x '%g'
set xlabel 'dispatch run length (requests), log scale'
set ylabel 'fraction of requests in runs at most this long'
set yrange [0:1.02]
set grid
set key right bottom
plot $runs0 using 1:2 with steps lw 1.5 lc 1 title '6.18.44-dl', $runs1 using 1:2 with steps lw 1.5 lc 2 title '6.18.44-as'

# seek-cdf: bench=3: read requests: seek distance, the fraction of requests that started at most x sectors from where the previous one ended (0, a sequential request, is drawn at 1), over every traced repetition
$seek0 << EOD
1 0.106347656
395264 0.552880859
528384 0.951806641
561152 1
EOD
$seek1 << EOD
1 0.978759766
395264 0.989599609
528384 0.998632813
561152 1
EOD
set logscale x
set format x '%g'
set xlabel 'seek distance (sectors), log scale'
set ylabel 'fraction of requests at or below'
set yrange [0:1.02]
set grid
set key right bottom
plot $seek0 using 1:2 with steps lw 1.5 lc 1 title '6.18.44-dl', $seek1 using 1:2 with steps lw 1.5 lc 2 title '6.18.44-as'

# trace-time: bench=3: write requests: mean time of a request in the scheduler (I2D, inserted to dispatched) and in the device (D2C, dispatched to completed), ms, over every traced repetition
$time << EOD
"6.18.44-dl" 1.26064402 9.19321571
"6.18.44-as" 1.57097235 9.03151657
EOD
set style data histogram
set style histogram rowstacked
set style fill solid 0.75 border -1
set boxwidth 0.6
set key outside right top
set grid ytics
set yrange [0:*]
set ylabel 'ms per request'
plot $time using 2:xtic(1) title 'I2D: in the scheduler', '' using 3 title 'D2C: in the device'

# dispatch-runs: bench=3: write requests: dispatch runs, the fraction of requests dispatched in runs of at most x requests from one stream, over every traced repetition
$runs0 << EOD
1 1
EOD
$runs1 << EOD
1 1
EOD
set logscale x 2
set format x '%g'
set xlabel 'dispatch run length (requests), log scale'
set ylabel 'fraction of requests in runs at most this long'
set yrange [0:1.02]
set grid
set key right bottom
plot $runs0 using 1:2 with steps lw 1.5 lc 1 title '6.18.44-dl', $runs1 using 1:2 with steps lw 1.5 lc 2 title '6.18.44-as'

# seek-cdf: bench=3: write requests: seek distance, the fraction of requests that started at most x sectors from where the previous one ended (0, a sequential request, is drawn at 1), over every traced repetition
$seek0 << EOD
489472 0.142857143
497664 0.387755102
501760 0.448979592
528384 0.836734694
536576 0.857142857
552960 0.979591837
561152 1
EOD
$seek1 << EOD
489472 0.240740741
497664 0.333333333
501760 0.351851852
509952 0.425925926
528384 0.851851852
552960 0.925925926
561152 1
EOD
set logscale x
set format x '%g'
set xlabel 'seek distance (sectors), log scale'
set ylabel 'fraction of requests at or below'
set yrange [0:1.02]
set grid
set key right bottom
plot $seek0 using 1:2 with steps lw 1.5 lc 1 title '6.18.44-dl', $seek1 using 1:2 with steps lw 1.5 lc 2 title '6.18.44-as'

