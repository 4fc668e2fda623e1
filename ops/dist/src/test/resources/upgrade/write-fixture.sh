#!/usr/bin/env bash
# Writes the upgrade fixture's data through the REST API of a running `statesync up` (see README.md beside it).
# Usage: write-fixture.sh http://127.0.0.1:<http-port>
set -euo pipefail
base=${1:?base URL}
j='Content-Type: application/json'

# A kind policy of our own (the demo seeds WebApp, Deployment and Service): a validation rule and an ignored field.
curl -sf -X PUT "$base/api/v1/kinds/Database" -H "$j" -d '{
  "ignoredFields": ["annotations"],
  "validationRules": [{"rule": "self.storageGb >= 1 && self.storageGb <= 100", "message": "storageGb must be between 1 and 100", "fieldPath": "storageGb"}],
  "healthRules": [{"status": "Healthy", "when": "true", "message": "declared"}]
}' >/dev/null
curl -sf -X PUT "$base/api/v1/kinds/Backup" -H "$j" -d '{"maxAttempts": 3}' >/dev/null

# WebApps in two namespaces: the demo agent renders a Deployment and a Service for each (owned by the WebApp) and the
# simulated fleet applies them and reports, so they become Synced.
curl -sf -X PUT "$base/api/v1/resources/WebApp/default/shop" -H "$j" \
  -d '{"metadata":{"labels":{"app":"shop","tier":"web"}},"spec":{"image":"nginx:1.21","replicas":2}}' >/dev/null
curl -sf -X PUT "$base/api/v1/resources/WebApp/team-a/blog" -H "$j" \
  -d '{"metadata":{"labels":{"app":"blog","tier":"web","team":"a"}},"spec":{"image":"ghost:5","replicas":1}}' >/dev/null

# Databases no agent manages: one written twice (generation 2), one deleted afterwards.
curl -sf -X PUT "$base/api/v1/resources/Database/team-a/orders" -H "$j" \
  -d '{"metadata":{"labels":{"team":"a","engine":"postgres"}},"spec":{"engine":"postgres","storageGb":10}}' >/dev/null
curl -sf -X PUT "$base/api/v1/resources/Database/team-b/billing" -H "$j" \
  -d '{"metadata":{"labels":{"team":"b","engine":"mysql"}},"spec":{"engine":"mysql","storageGb":5}}' >/dev/null
curl -sf -X PUT "$base/api/v1/resources/Database/team-b/billing" -H "$j" \
  -d '{"metadata":{"labels":{"team":"b","engine":"mysql"}},"spec":{"engine":"mysql","storageGb":20}}' >/dev/null
curl -sf -X PUT "$base/api/v1/resources/Database/team-b/legacy" -H "$j" \
  -d '{"metadata":{"labels":{"team":"b"}},"spec":{"engine":"mysql","storageGb":1}}' >/dev/null
curl -sf -X DELETE "$base/api/v1/resources/Database/team-b/legacy" >/dev/null

# A Backup owned by the Database it backs up.
orders_uid=$(curl -sf "$base/api/v1/resources/Database/team-a/orders" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["uid"])')
curl -sf -X PUT "$base/api/v1/resources/Backup/team-a/orders-nightly" -H "$j" -d '{"metadata":{"labels":{"team":"a"},
  "ownerReferences":[{"apiVersion":"statesync.io/v1","kind":"Database","name":"orders","uid":"'"$orders_uid"'","controller":true,"blockOwnerDeletion":true}]},
  "spec":{"schedule":"0 3 * * *","retainDays":7}}' >/dev/null
echo written
