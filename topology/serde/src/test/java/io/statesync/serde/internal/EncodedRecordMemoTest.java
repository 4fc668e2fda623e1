package io.statesync.serde.internal;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.avro.store.ReconcileState;
import io.statesync.schemas.Values;
import io.statesync.serde.WireFormat;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EncodedRecordMemoTest {

    private final EncodedRecordMemo memo = new EncodedRecordMemo(Resource.class);
    private final ValueAwareDatumWriter<ReconcileState> stateWriter = new ValueAwareDatumWriter<>(
        ReconcileState.getClassSchema(), ClassResolvedUnionData.forClass(ReconcileState.class), memo);

    @Test
    void shouldCopyTheKeptBytesWhenTheSameInstanceIsWrittenInsideAState() throws IOException {
        Resource live = resource("1", "nginx:1.21");
        // Kept bytes of another resource: finding them in the state proves they were copied, not encoded again.
        memo.remember(live, wire(resource("9", "other:2")));

        ReconcileState back = roundTrip(state(live));

        assertThat(back.getResource()).isEqualTo(resource("9", "other:2"));
        assertThat(memo.size()).as("handed out once").isZero();
    }

    @Test
    void shouldWriteWhatAFreshEncodingWritesWhenCopying() throws IOException {
        Resource live = resource("1", "nginx:1.21");
        memo.remember(live, wire(live));

        byte[] copied = encode(state(live));
        byte[] fresh = encode(state(live));

        assertThat(copied).isEqualTo(fresh);
        assertThat(memo.size()).isZero();
    }

    @Test
    void shouldEncodeAgainWhenANestedRecordFieldWasSetSince() throws IOException {
        Resource live = resource("1", "nginx:1.21");
        memo.remember(live, wire(live));
        live.getMetadata().setResourceVersion("2");

        assertThat(roundTrip(state(live)).getResource().getMetadata().getResourceVersion()).isEqualTo("2");
    }

    @Test
    void shouldEncodeAgainWhenAFieldWasReplacedSince() throws IOException {
        Resource live = resource("1", "nginx:1.21");
        memo.remember(live, wire(live));
        live.setStatus(status(SyncStatus.Synced));

        assertThat(roundTrip(state(live)).getResource().getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
    }

    @Test
    void shouldCopyWhenAPrimitiveFieldWasSetToTheSameValue() throws IOException {
        Resource live = resource("1", "nginx:1.21");
        memo.remember(live, wire(resource("9", "other:2")));
        live.getMetadata().setGeneration(1_000_000L);

        assertThat(roundTrip(state(live)).getResource().getSpec()).isEqualTo(Values.fromJava(Map.of("image", "other:2")));
    }

    @Test
    void shouldKeepEntriesToTheThreadThatWroteThem() throws Exception {
        Resource live = resource("1", "nginx:1.21");
        memo.remember(live, wire(resource("9", "other:2")));

        ReconcileState elsewhere = CompletableFuture.supplyAsync(() -> {
            try {
                return roundTrip(state(live));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).get();

        assertThat(elsewhere.getResource()).isEqualTo(live);
        assertThat(memo.size()).isOne();
    }

    @Test
    void shouldKeepOnlyWireFormatPayloadsOfInstancesOfItsType() {
        var serializer = memo.remembering((String topic, SpecificRecord r) -> new byte[WireFormat.HEADER_SIZE + 1]);
        var headerless = memo.remembering((String topic, SpecificRecord r) -> new byte[] {1, 2, 3, 4, 5, 6});

        serializer.serialize("t", state(resource("1", "nginx:1.21")));
        serializer.serialize("t", resource("1", "nginx:1.21"));
        headerless.serialize("t", resource("1", "nginx:1.21"));

        assertThat(memo.size()).as("only the wire-format payload of a Resource").isOne();
    }

    @Test
    void shouldKeepAnEntryForAGenerationOfLaterOnes() throws IOException {
        Resource first = resource("1", "nginx:1.21");
        byte[] wire = wire(first);
        memo.remember(first, wire(resource("9", "other:2")));
        for (int i = 0; i < 2 * EncodedRecordMemo.GENERATION - 1; i++) {
            memo.remember(resource("1", "nginx:1.21"), wire);
        }

        assertThat(memo.size()).isEqualTo(2 * EncodedRecordMemo.GENERATION);
        assertThat(roundTrip(state(first)).getResource()).as("still kept, so copied").isEqualTo(resource("9", "other:2"));
    }

    @Test
    void shouldForgetTheOlderGenerationWhenTheNewerIsFull() throws IOException {
        Resource first = resource("1", "nginx:1.21");
        byte[] wire = wire(first);
        memo.remember(first, wire(resource("9", "other:2")));
        for (int i = 0; i < 2 * EncodedRecordMemo.GENERATION; i++) {
            memo.remember(resource("1", "nginx:1.21"), wire);
        }

        assertThat(memo.size()).isEqualTo(EncodedRecordMemo.GENERATION + 1);
        assertThat(roundTrip(state(first)).getResource()).as("forgotten, so encoded afresh").isEqualTo(first);
    }

    @Test
    void shouldFindEachOfManyKeptInstances() throws IOException {
        List<Resource> live = new ArrayList<>();
        for (int i = 0; i < EncodedRecordMemo.GENERATION; i++) {
            Resource r = resource(Integer.toString(i), "nginx:1.21");
            live.add(r);
            memo.remember(r, wire(resource(Integer.toString(i), "kept:" + i)));
        }

        for (int i = live.size() - 1; i >= 0; i--) {
            assertThat(roundTrip(state(live.get(i))).getResource().getSpec())
                .isEqualTo(Values.fromJava(Map.of("image", "kept:" + i)));
        }
        assertThat(memo.size()).as("each handed out once").isZero();
    }

    private byte[] encode(ReconcileState st) throws IOException {
        return EncodeBuffer.encode(7, stateWriter, st);
    }

    private ReconcileState roundTrip(ReconcileState st) throws IOException {
        byte[] bytes = encode(st);
        return new SpecificDatumReader<>(ReconcileState.class).read(null, DecoderFactory.get()
            .binaryDecoder(bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE, null));
    }

    private static byte[] wire(Resource r) throws IOException {
        return EncodeBuffer.encode(3, new ValueAwareDatumWriter<>(Resource.getClassSchema(),
            ClassResolvedUnionData.forClass(Resource.class)), r);
    }

    private static ReconcileState state(Resource r) {
        return ReconcileState.newBuilder().setResource(r).build();
    }

    private static Resource resource(String version, String image) {
        ObjectMeta meta = ObjectMeta.newBuilder().setKind("WebApp").setNamespace("default").setName("shop").setUid("u-1")
            .setResourceVersion(version).setGeneration(1_000_000L).setCreationTimestamp(Instant.ofEpochMilli(1000)).build();
        return Resource.newBuilder().setMetadata(meta).setSpec(Values.fromJava(Map.of("image", image)))
            .setStatus(status(SyncStatus.Progressing)).build();
    }

    private static ResourceStatus status(SyncStatus s) {
        return ResourceStatus.newBuilder().setSyncStatus(s).build();
    }
}
