#!/usr/bin/env bash
# Stops the broker that start.sh started from the same state directory.
here=$(cd "$(dirname "$0")" && pwd)
state=${1:-${RINGZERO_BROKER_DIR:-$here/../data/mosquitto}}
[ -f "$state/mosquitto.pid" ] && kill "$(cat "$state/mosquitto.pid")" 2>/dev/null || true
