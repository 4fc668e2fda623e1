package io.statesync.app.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

class BoundedRocksDbMemoryTest {

    static {
        RocksDB.loadLibrary();
    }

    private final BoundedRocksDbMemory setter = new BoundedRocksDbMemory();

    @Test
    void shouldChargeEveryStoreOfOneApplicationToOneBudget() {
        try (Options state = configured("app-a", "state"); Options timers = configured("app-a", "timers")) {
            assertThat(state.writeBufferManager()).isNotNull().isSameAs(timers.writeBufferManager());
        }
    }

    @Test
    void shouldGiveEachApplicationItsOwnBudget() {
        try (Options a = configured("app-b", "state"); Options b = configured("app-c", "state")) {
            assertThat(a.writeBufferManager()).isNotSameAs(b.writeBufferManager());
        }
    }

    @Test
    void shouldFreeTheBudgetOnlyWhenItsLastStoreCloses() {
        Options first = configured("app-e", "state");
        Options second = configured("app-e", "timers");
        Object shared = first.writeBufferManager();
        setter.close("state", first);
        try (Options third = configured("app-e", "revisions")) {
            assertThat(third.writeBufferManager()).isSameAs(shared);
            setter.close("timers", second);
            setter.close("revisions", third);
        }
        try (Options afterAllClosed = configured("app-e", "state")) {
            assertThat(afterAllClosed.writeBufferManager()).isNotSameAs(shared);
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void shouldBoundMemtablesPerStoreAndKeepIndexBlocksInTheCache() {
        try (Options options = configured("app-d", "state")) {
            assertThat(options.maxWriteBufferNumber()).isEqualTo(2);
            assertThat(options.writeBufferSize()).isEqualTo(16L * 1024 * 1024);
            assertThat(((BlockBasedTableConfig) options.tableFormatConfig()).cacheIndexAndFilterBlocks()).isTrue();
        }
    }

    @Test
    void shouldOpenKeptStoresWithoutReadingEveryFilesStatistics() {
        try (Options options = configured("app-f", "state")) {
            assertThat(options.skipStatsUpdateOnDbOpen()).isTrue();
            assertThat(options.skipCheckingSstFileSizesOnDbOpen()).isTrue();
        }
    }

    private Options configured(String applicationId, String store) {
        Options options = new Options();
        options.setTableFormatConfig(new BlockBasedTableConfig());
        setter.setConfig(store, options, Map.of(StreamsConfig.APPLICATION_ID_CONFIG, applicationId,
            BoundedRocksDbMemory.MEMORY_BYTES_CONFIG, 256L * 1024 * 1024));
        return options;
    }
}
