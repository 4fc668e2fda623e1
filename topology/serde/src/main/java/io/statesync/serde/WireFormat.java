package io.statesync.serde;

import java.util.OptionalInt;

/** The Confluent wire format: byte 0x00, a 4-byte big-endian schema id, then the Avro binary encoding. */
public final class WireFormat {

    public static final byte MAGIC_BYTE = 0x00;
    public static final int HEADER_SIZE = 5;

    private WireFormat() {
    }

    /** The schema id of a payload, or empty when it is too short or does not start with the magic byte. */
    public static OptionalInt schemaId(byte[] data) {
        if (data == null || data.length < HEADER_SIZE || data[0] != MAGIC_BYTE) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(readId(data));
    }

    static int readId(byte[] data) {
        return (data[1] & 0xff) << 24 | (data[2] & 0xff) << 16 | (data[3] & 0xff) << 8 | data[4] & 0xff;
    }
}
