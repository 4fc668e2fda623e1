"""Server-side apply from Kubernetes' Python client against statesync's Kubernetes API.

Usage: kube_server_side_apply.py HOST TOKEN NAMESPACE KIND PLURAL
Applies with CustomObjectsApi.patch_namespaced_custom_object under application/apply-patch+yaml (this client
version sends merge patches from that method unless the Content-Type is given as a default header), then a second
manager's change through the dynamic client's server_side_apply: refused with a conflict, then forced. This client
version sends a body under a Content-Type other than JSON only when it is text, so the configurations go as JSON text.
Prints one JSON document with what it saw.
"""
import json
import sys

from kubernetes import client, dynamic
from kubernetes.client.rest import ApiException


def main():
    host, token, namespace, kind, plural = sys.argv[1:6]
    config = client.Configuration()
    config.host = host
    config.api_key = {"authorization": "Bearer " + token}
    api_client = client.ApiClient(config)
    api_client.set_default_header("Content-Type", "application/apply-patch+yaml")
    custom = client.CustomObjectsApi(api_client)
    body = {"apiVersion": "statesync.io/v1", "kind": kind,
            "metadata": {"name": "applied", "namespace": namespace},
            "spec": {"image": "nginx:1", "replicas": 1}}
    out = {}
    created = custom.patch_namespaced_custom_object("statesync.io", "v1", namespace, plural, "applied", json.dumps(body),
                                                    field_manager="py-deployer")
    out["created"] = created["spec"]["replicas"]
    out["managers"] = [m["manager"] + "/" + m["operation"] for m in created["metadata"]["managedFields"]]

    apps = dynamic.DynamicClient(client.ApiClient(config)).resources.get(api_version="statesync.io/v1", kind=kind)
    theirs = {"apiVersion": "statesync.io/v1", "kind": kind,
              "metadata": {"name": "applied", "namespace": namespace}, "spec": {"replicas": 4}}
    try:
        apps.server_side_apply(body=json.dumps(theirs), name="applied", namespace=namespace,
                               field_manager="py-scaler")
        out["conflict"] = None
    except ApiException as e:
        status = json.loads(e.body)
        out["conflict"] = [e.status, [c["field"] for c in status["details"]["causes"]]]
    forced = apps.server_side_apply(body=json.dumps(theirs), name="applied", namespace=namespace,
                                    field_manager="py-scaler", force_conflicts=True)
    out["forced"] = [forced.spec.replicas, forced.spec.image]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
