"""Kubernetes' Python client against kinds a CustomResourceDefinition defines.

Usage: kube_custom_resources.py HOST TOKEN NAMESPACE
Creates a CustomResourceDefinition of gadgets.example.org (versions v1 and v1beta1) with the dynamic client, discovers
the new group with a fresh client, and creates, reads, patches, lists and deletes a Gadget in each version. Prints one
JSON document with what it saw.
"""
import json
import sys

from kubernetes import client, dynamic

CRD = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "gadgets.example.org"},
    "spec": {
        "group": "example.org", "scope": "Namespaced",
        "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget"},
        "versions": [
            {"name": "v1beta1", "served": True, "storage": False,
             "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}},
            {"name": "v1", "served": True, "storage": True,
             "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}},
        ],
    },
}


def dynamic_client(host, token):
    config = client.Configuration()
    config.host = host
    config.api_key = {"authorization": "Bearer " + token}
    return dynamic.DynamicClient(client.ApiClient(config))


def main():
    host, token, namespace = sys.argv[1:4]
    out = {}
    crds = dynamic_client(host, token).resources.get(api_version="apiextensions.k8s.io/v1",
                                                     kind="CustomResourceDefinition")
    created = crds.create(body=CRD)
    out["established"] = [c.type for c in created.status.conditions if c.status == "True"]
    fresh = dynamic_client(host, token)
    group = fresh.request("get", "/apis/example.org")
    out["preferred"] = group.preferredVersion.version
    for version in ("v1", "v1beta1"):
        gadgets = fresh.resources.get(api_version="example.org/" + version, kind="Gadget")
        name = "g-" + version
        body = {"apiVersion": "example.org/" + version, "kind": "Gadget",
                "metadata": {"name": name, "namespace": namespace}, "spec": {"size": 1}}
        made = gadgets.create(body=body, namespace=namespace)
        patched = gadgets.patch(name=name, namespace=namespace, body={"spec": {"size": 2}},
                                content_type="application/merge-patch+json")
        listed = gadgets.get(namespace=namespace)
        out[version] = {"apiVersion": made.apiVersion, "patched": patched.spec.size,
                        "listed": sorted(i.metadata.name for i in listed.items), "listApiVersion": listed.apiVersion}
        gadgets.delete(name=name, namespace=namespace)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
