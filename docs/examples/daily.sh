#!/bin/sh
# A week of play at the seed table (basic strategy, 180k rounds a day, one seed a day) as the
# log `rtplab monitor` reads: period,rounds,wagered,returned, amounts in initial bets (the
# wagered amount includes doubles and splits, the returned amount the stakes won back). Made by, from the repository's root:
#   sh docs/examples/daily.sh > docs/examples/daily.csv
# Set RTPLAB to the binary (default: rtplab on the PATH).
RTPLAB=${RTPLAB:-rtplab}
echo period,rounds,wagered,returned
seed=0
for day in mon tue wed thu fri sat sun; do
  seed=$((seed + 1))
  "$RTPLAB" sim blackjack --rounds 180k --seed "$seed" --quiet --format json |
    awk -v day="$day" '
      /^  "(rounds|initial_bets|rtp|rtp_total_wagered)": / {
        key = $1; gsub(/[":]/, "", key); value = $2; gsub(/,/, "", value); v[key] = value
      }
      END {
        # The net win in initial bets, and the amount wagered (doubles and splits included)
        # that the RTP per amount wagered gives: net = wagered * (rtp_total_wagered - 1).
        net = v["initial_bets"] * (v["rtp"] - 1)
        wagered = net / (v["rtp_total_wagered"] - 1)
        printf "%s,%d,%.2f,%.2f\n", day, v["rounds"], wagered, wagered + net
      }'
done
