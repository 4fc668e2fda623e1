package io.statesync.serde;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WireFormatTest {

    @Test
    void shouldReadTheBigEndianSchemaIdAfterTheMagicByte() {
        assertThat(WireFormat.schemaId(new byte[] {0, 0x01, 0x02, 0x03, (byte) 0xff, 9})).hasValue(0x010203ff);
    }

    @Test
    void shouldFindNoIdWithoutAValidHeader() {
        assertThat(WireFormat.schemaId(null)).isEmpty();
        assertThat(WireFormat.schemaId(new byte[] {0, 0, 0, 1})).isEmpty();
        assertThat(WireFormat.schemaId(new byte[] {1, 0, 0, 0, 1})).isEmpty();
    }
}
