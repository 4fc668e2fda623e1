"""Checks a server's /openapi/v2 against the JSON Schema of Swagger 2.0 (Debian's python3-jsonschema).

Usage: openapi_v2_valid.py SCHEMA_FILE HOST TOKEN
Prints one JSON document: the number of definitions, and every error (path and message); exits 0 either way, so that
the caller asserts on what it saw.
"""
import json
import sys
import urllib.request

import jsonschema


def main():
    schema_file, host, token = sys.argv[1:4]
    with open(schema_file, encoding="utf-8") as f:
        schema = json.load(f)
    request = urllib.request.Request(host + "/openapi/v2", headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as r:
        document = json.load(r)
    validator = jsonschema.Draft4Validator(schema)
    errors = ["/".join(str(p) for p in e.absolute_path) + ": " + e.message for e in validator.iter_errors(document)]
    print(json.dumps({"definitions": sorted(document.get("definitions", {})), "errors": errors[:20]}))


if __name__ == "__main__":
    main()
