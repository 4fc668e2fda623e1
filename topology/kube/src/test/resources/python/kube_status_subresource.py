"""A controller's status writes from Kubernetes' Python client against statesync's Kubernetes API.

Usage: kube_status_subresource.py HOST TOKEN NAMESPACE KIND PLURAL
Creates an object, writes its status with patch_namespaced_custom_object_status (a merge patch), then with
server-side apply on the status subresource under its own field manager (the Content-Type given as a default
header, the configuration as JSON text, as this client version needs), then with a stale resourceVersion.
Prints one JSON document with what it saw.
"""
import json
import sys

from kubernetes import client
from kubernetes.client.rest import ApiException

GROUP, VERSION = "statesync.io", "v1"


def api(host, token, content_type=None):
    config = client.Configuration()
    config.host = host
    config.api_key = {"authorization": "Bearer " + token}
    api_client = client.ApiClient(config)
    if content_type:
        api_client.set_default_header("Content-Type", content_type)
    return client.CustomObjectsApi(api_client)


def main():
    host, token, namespace, kind, plural = sys.argv[1:6]
    custom = api(host, token)
    out = {}
    created = custom.create_namespaced_custom_object(GROUP, VERSION, namespace, plural, {
        "apiVersion": GROUP + "/" + VERSION, "kind": kind, "metadata": {"name": "py-status"},
        "spec": {"image": "nginx:1", "replicas": 2}})
    out["generation"] = created["metadata"]["generation"]
    merged = custom.patch_namespaced_custom_object_status(GROUP, VERSION, namespace, plural, "py-status", {
        "status": {"readyReplicas": 1, "observedGeneration": 1}})
    out["merged"] = [merged["status"]["readyReplicas"], merged["spec"]["replicas"], merged["metadata"]["generation"]]

    applier = api(host, token, "application/apply-patch+yaml")
    applied = applier.patch_namespaced_custom_object_status(GROUP, VERSION, namespace, plural, "py-status", json.dumps({
        "apiVersion": GROUP + "/" + VERSION, "kind": kind, "metadata": {"name": "py-status"},
        "status": {"readyReplicas": 2, "observedGeneration": 1,
                   "conditions": [{"type": "Ready", "status": "True", "reason": "AllReplicasReady",
                                   "message": "2 of 2 replicas are ready"}]}}), field_manager="py-controller")
    out["applied"] = [applied["status"]["readyReplicas"], applied["status"]["syncStatus"],
                      sorted(c["type"] for c in applied["status"]["conditions"])]

    stale = dict(applied)
    stale["metadata"] = dict(applied["metadata"], resourceVersion=created["metadata"]["resourceVersion"])
    stale["status"] = {"readyReplicas": 0}
    try:
        custom.replace_namespaced_custom_object_status(GROUP, VERSION, namespace, plural, "py-status", stale)
        out["stale"] = None
    except ApiException as e:
        out["stale"] = [e.status, json.loads(e.body)["reason"]]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
