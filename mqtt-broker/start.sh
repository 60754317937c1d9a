#!/usr/bin/env bash
# Starts RingZero's own Mosquitto (dynamic security, TCP_NODELAY) in the background.
# Idempotent: does nothing when something already listens on the port.
#   mqtt-broker/start.sh [state-dir] [port]
# The platform's service password comes from RINGZERO_MQTT_SERVICE_PASSWORD.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state=${1:-${RINGZERO_BROKER_DIR:-$here/../data/mosquitto}}
port=${2:-${RINGZERO_MQTT_PORT:-18831}}
password=${RINGZERO_MQTT_SERVICE_PASSWORD:-ringzero-dev-service}

if (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
  echo "mqtt-broker: something already listens on 127.0.0.1:$port"
  exit 0
fi
plugin=$(ls /usr/lib/*/mosquitto_dynamic_security.so /usr/lib/mosquitto_dynamic_security.so \
  /usr/local/lib/mosquitto_dynamic_security.so 2>/dev/null | head -n 1 || true)
[ -n "$plugin" ] || { echo "mqtt-broker: mosquitto_dynamic_security.so not found (install mosquitto 2.x)" >&2; exit 1; }

mkdir -p "$state"
state=$(cd "$state" && pwd)
# The client-id rule (ringzero_clientid.c), built against this machine's Mosquitto
clientid_plugin="$state/ringzero_clientid.so"
if [ ! -f "$clientid_plugin" ] || [ "$here/ringzero_clientid.c" -nt "$clientid_plugin" ]; then
  if ! command -v cc >/dev/null || [ ! -f /usr/include/mosquitto_plugin.h ] || [ ! -f /usr/include/mosquitto.h ]; then
    echo "mqtt-broker: building the client-id plugin needs a C compiler, mosquitto-dev and libmosquitto-dev" >&2
    exit 1
  fi
  cc -shared -fPIC -O2 -o "$clientid_plugin" "$here/ringzero_clientid.c"
fi
if [ ! -f "$state/dynamic-security.json" ]; then
  mosquitto_ctrl dynsec init "$state/dynamic-security.json" ringzero-platform "$password" >/dev/null
  # The platform's role may also publish and subscribe under the RingZero topic root.
  python3 - "$state/dynamic-security.json" <<'PY'
import json, sys
path = sys.argv[1]
data = json.load(open(path))
for role in data["roles"]:
    if role["rolename"] == "admin":
        role["acls"] += [
            {"acltype": "publishClientSend", "topic": "ringzero/v1/#", "allow": True},
        ]
json.dump(data, open(path, "w"), indent=2)
PY
  chmod 600 "$state/dynamic-security.json"
fi
# Device roles provisioned before the topic rights (issue 23) allow a device its whole subtree,
# its own invoke topic included: give every device role today's rights, as
# DynsecBrokerAccess.acls provisions them (keep the two alike). Read at the broker's start.
python3 - "$state/dynamic-security.json" <<'PY'
import json, sys
path = sys.argv[1]
data = json.load(open(path))
changed = False
for role in data.get("roles", []):
    if not role["rolename"].startswith("gadget-"):
        continue
    root = "ringzero/v1/gadgets/" + role["rolename"][len("gadget-"):] + "/"
    acls = [{"acltype": "publishClientSend", "topic": root + t, "priority": 0, "allow": True}
            for t in ("register", "status", "events", "results")]
    for t in ("invoke", "control", "register/reply"):
        acls += [{"acltype": kind, "topic": root + t, "priority": 0, "allow": True}
                 for kind in ("publishClientReceive", "subscribePattern", "unsubscribePattern")]
    if role.get("acls") != acls:
        role["acls"] = acls
        changed = True
if changed:
    json.dump(data, open(path, "w"), indent=2)
PY
sed -e "s#@STATE_DIR@#$state#g" -e "s#@CLIENTID_PLUGIN@#$clientid_plugin#g" -e "s#@PORT@#$port#g" -e "s#@DYNSEC_PLUGIN@#$plugin#g" -e "s#@USER@#$(id -un)#g" \
  "$here/mosquitto.conf.template" > "$state/mosquitto.conf"
mosquitto -c "$state/mosquitto.conf" -d
for _ in $(seq 1 50); do
  if (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
    echo "mqtt-broker: listening on 127.0.0.1:$port (state in $state)"
    exit 0
  fi
  sleep 0.1
done
echo "mqtt-broker: did not start; see $state/mosquitto.log" >&2
exit 1
