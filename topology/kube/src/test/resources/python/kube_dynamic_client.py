"""Kubernetes' Python client (its dynamic client) against statesync's Kubernetes API.

Usage: kube_dynamic_client.py HOST TOKEN NAMESPACE KIND
Creates, reads, patches, lists and deletes one object, and watches from the resourceVersion of an object in a list:
the watch must deliver exactly the changes made after that list. Prints one JSON document with what it saw.
"""
import json
import sys

from kubernetes import client, dynamic


def main():
    host, token, namespace, kind = sys.argv[1:5]
    config = client.Configuration()
    config.host = host
    config.api_key = {"authorization": "Bearer " + token}
    apps = dynamic.DynamicClient(client.ApiClient(config)).resources.get(api_version="statesync.io/v1", kind=kind)
    out = {}
    body = {"apiVersion": "statesync.io/v1", "kind": kind,
            "metadata": {"name": "one", "namespace": namespace, "labels": {"lang": "python"}},
            "spec": {"image": "nginx:1", "replicas": 1}}
    out["created"] = apps.create(body=body, namespace=namespace).metadata.generation
    out["read"] = apps.get(name="one", namespace=namespace).spec.image
    patched = apps.patch(name="one", namespace=namespace, body={"spec": {"replicas": 2}},
                         content_type="application/merge-patch+json")
    out["patched"] = patched.spec.replicas
    listed = apps.get(namespace=namespace, label_selector="lang=python")
    out["listed"] = [i.metadata.name for i in listed.items]
    resume_from = listed.items[0].metadata.resourceVersion
    for replicas in (3, 4):
        apps.patch(name="one", namespace=namespace, body={"spec": {"replicas": replicas}},
                   content_type="application/merge-patch+json")
    seen = []
    for event in apps.watch(namespace=namespace, resource_version=resume_from, timeout=5):
        seen.append([event["type"], event["object"].spec.replicas])
    out["watched"] = seen
    apps.delete(name="one", namespace=namespace)
    try:
        apps.get(name="missing", namespace=namespace)
        out["missing"] = None
    except Exception as e:  # the client raises NotFoundError with the Status
        out["missing"] = getattr(e, "status", str(e))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
