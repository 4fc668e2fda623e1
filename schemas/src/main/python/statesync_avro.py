#!/usr/bin/python3
"""Produce and read statesync's Avro records from Python, in the Confluent wire format.

Needs the Debian packages python3-confluent-kafka and python3-avro (the legacy confluent_kafka.avro API,
which runs without fastavro). See schemas/README.md.

As a library::

    import statesync_avro as sa
    sa.fix_union_branches()              # once, before writing anything
    value = sa.to_value({"replicas": 2, "image": "nginx:1.21"})
    record = sa.from_json(schema, {"kind": "WebApp", "namespace": "default", "name": "shop", "spec": {...}})

From the command line::

    statesync_avro.py produce --bootstrap 127.0.0.1:9092 --registry http://127.0.0.1:8081/apis/ccompat/v7 \\
        --topic statesync.desired --key WebApp/default/shop < shop.json
    statesync_avro.py consume --bootstrap 127.0.0.1:9092 --registry http://127.0.0.1:8081/apis/ccompat/v7 \\
        --topic statesync.resources --max 10
"""
import argparse
import datetime
import json
import struct
import sys
import uuid

import avro.errors
import avro.io

VALUE = "io.statesync.avro.Value"
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def _first_match_write_union(self, writers_schema, datum, encoder):
    for index, branch in enumerate(writers_schema.schemas):
        if avro.io.validate(branch, datum):
            encoder.write_long(index)
            return self.write_data(branch, datum, encoder)
    raise avro.errors.AvroTypeException(writers_schema, datum)


def fix_union_branches():
    """Make avro 1.11 write a union datum as the FIRST branch it fits, as the Avro spec and Java do.

    Out of the box it takes the LAST branch that validates, and both an int and a bool validate as double, so
    Value's [null, boolean, long, double, ...] union would turn 5 and True into 5.0 and 1.0.
    """
    avro.io.DatumWriter.write_union = _first_match_write_union


def to_value(obj):
    """The Avro Value datum of a JSON-like Python tree (None, bool, int, float, str, list, dict)."""
    if isinstance(obj, dict):
        return {"value": {str(k): to_value(v) for k, v in obj.items()}}
    if isinstance(obj, (list, tuple)):
        return {"value": [to_value(v) for v in obj]}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return {"value": obj}
    raise TypeError("no Value form for %r" % (obj,))


def from_value(value):
    """The Python tree of an Avro Value datum; None stays None."""
    if value is None:
        return None
    inner = value["value"]
    if isinstance(inner, dict):
        return {k: from_value(v) for k, v in inner.items()}
    if isinstance(inner, list):
        return [from_value(v) for v in inner]
    return inner


def from_json(schema, datum):
    """The Avro datum of plain JSON for a schema: Value fields take any JSON, timestamps take epoch millis,
    and missing fields take their defaults."""
    if schema.type == "record":
        if schema.fullname == VALUE:
            return to_value(datum)
        return {f.name: _field(f, datum) for f in schema.fields}
    if schema.type == "union":
        if datum is None:
            return None
        return from_json(_branch(schema, datum), datum)
    if schema.type == "array":
        return [from_json(schema.items, x) for x in datum]
    if schema.type == "map":
        return {k: from_json(schema.values, v) for k, v in datum.items()}
    if getattr(schema, "logical_type", None) == "timestamp-millis":
        return _instant(datum)
    if schema.type == "double" and isinstance(datum, int):
        return float(datum)
    return datum


def to_json(schema, datum):
    """Plain JSON of an Avro datum: Values become their trees, timestamps epoch millis."""
    if datum is None:
        return None
    if schema.type == "record":
        if schema.fullname == VALUE:
            return from_value(datum)
        return {f.name: to_json(f.type, datum.get(f.name)) for f in schema.fields}
    if schema.type == "union":
        return to_json(next(b for b in schema.schemas if b.type != "null" and avro.io.validate(b, datum)), datum)
    if schema.type == "array":
        return [to_json(schema.items, x) for x in datum]
    if schema.type == "map":
        return {k: to_json(schema.values, v) for k, v in datum.items()}
    if isinstance(datum, datetime.datetime):
        return int((datum - EPOCH) / datetime.timedelta(milliseconds=1))
    return datum


def _field(field, datum):
    if field.name in datum:
        return from_json(field.type, datum[field.name])
    if not field.has_default:
        raise ValueError("field %r is required" % field.name)
    # A union's default belongs to its first branch.
    schema = field.type.schemas[0] if field.type.type == "union" else field.type
    return _instant(field.default) if getattr(schema, "logical_type", None) == "timestamp-millis" else field.default


def _branch(union, datum):
    branches = [b for b in union.schemas if b.type != "null"]
    if len(branches) != 1:
        raise ValueError("from_json handles [null, X] unions only, not %s" % union)
    return branches[0]


def _instant(millis):
    return EPOCH + datetime.timedelta(milliseconds=millis)


def _registry(args):
    from confluent_kafka.avro import CachedSchemaRegistryClient
    conf = {"url": args.registry}
    if args.user_info:
        conf.update({"basic.auth.credentials.source": "USER_INFO", "basic.auth.user.info": args.user_info})
    return CachedSchemaRegistryClient(conf)


def produce(args):
    """Writes JSON documents as Avro with the subject's latest registered schema (it never registers one)."""
    from confluent_kafka import Producer
    from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
    fix_union_branches()
    registry = _registry(args)
    schema_id, schema, _ = registry.get_latest_schema(args.topic + "-value")
    if schema_id is None:
        sys.exit("no schema is registered under %s-value; start statesync first (it registers its topics' schemas)" % args.topic)
    serializer = MessageSerializer(registry)
    producer = Producer({"bootstrap.servers": args.bootstrap, "acks": "all"})
    for key, value in _inputs(args):
        payload = None if value is None else serializer.encode_record_with_schema_id(schema_id, from_json(schema, value))
        producer.produce(args.topic, key=key.encode("utf-8"), value=payload)
    if producer.flush(30) != 0:
        sys.exit("some records were not delivered")


def consume(args):
    """Prints each record as a JSON line: key, schema id and the value as plain JSON (null for a tombstone)."""
    from confluent_kafka import Consumer
    from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
    registry = _registry(args)
    serializer = MessageSerializer(registry)
    consumer = Consumer({"bootstrap.servers": args.bootstrap, "group.id": "statesync-avro-" + str(uuid.uuid4()),
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([args.topic])
    seen = 0
    try:
        while args.max is None or seen < args.max:
            msg = consumer.poll(args.timeout)
            if msg is None:
                break
            if msg.error():
                sys.exit(str(msg.error()))
            print(json.dumps(_decoded(registry, serializer, msg.key(), msg.value()), ensure_ascii=False), flush=True)
            seen += 1
    finally:
        consumer.close()


def _decoded(registry, serializer, key, value):
    out = {"key": None if key is None else key.decode("utf-8"), "schema_id": None, "value": None}
    if value is not None:
        out["schema_id"] = struct.unpack(">bI", value[:5])[1]
        out["value"] = to_json(registry.get_by_id(out["schema_id"]), serializer.decode_message(value))
    return out


def _inputs(args):
    if args.key is not None:
        yield args.key, json.load(sys.stdin)
        return
    for line in sys.stdin:
        if line.strip():
            record = json.loads(line)
            yield record["key"], record.get("value")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["produce", "consume"])
    parser.add_argument("--bootstrap", default="127.0.0.1:9092")
    parser.add_argument("--registry", default="http://127.0.0.1:8081/apis/ccompat/v7")
    parser.add_argument("--user-info", help="user:password for registry basic auth")
    parser.add_argument("--topic", required=True)
    parser.add_argument("--key", help="produce: the key of the one JSON document on stdin; "
                                      "without it stdin holds JSON lines {\"key\": ..., \"value\": ...}")
    parser.add_argument("--max", type=int, help="consume: stop after this many records")
    parser.add_argument("--timeout", type=float, default=10.0, help="consume: stop after this many idle seconds")
    args = parser.parse_args(argv)
    produce(args) if args.command == "produce" else consume(args)


if __name__ == "__main__":
    main()
