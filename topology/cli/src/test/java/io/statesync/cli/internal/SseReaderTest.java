package io.statesync.cli.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SseReaderTest {

    private static SseReader reader(String stream) {
        return new SseReader(new BufferedReader(new StringReader(stream)));
    }

    @Test
    void shouldHandOutEachEventAtTheBlankLineThatEndsIt() throws IOException {
        SseReader in = reader(": statesync watch\n\nevent: ADDED\nid: a1\ndata: {\"n\":1}\n\n: ping\n\n"
            + "event: ERROR\ndata: {\"n\":2}\n\n");
        assertThat(in.next()).isEqualTo(new SseReader.Event("ADDED", "a1", "{\"n\":1}"));
        assertThat(in.next()).isEqualTo(new SseReader.Event("ERROR", null, "{\"n\":2}"));
        assertThat(in.next()).isNull();
    }

    @Test
    void shouldNeverHandOutAnEventCutOffBeforeItsBlankLine() throws IOException {
        assertThat(reader("event: ADDED\nid: a1\ndata: {\"n\":1}\n").next()).isNull();
        assertThat(reader("event: ADDED\nid: a1\ndata: {\"n\"").next()).isNull();
    }

    @Test
    void shouldJoinDataLinesAndTakeFieldsWithoutASpace() throws IOException {
        SseReader in = reader("data:one\ndata: two\nid:x\n\n");
        assertThat(in.next()).isEqualTo(new SseReader.Event("message", "x", "one\ntwo"));
    }
}
