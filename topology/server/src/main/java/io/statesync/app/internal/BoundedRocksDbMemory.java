package io.statesync.app.internal;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * One memory budget for all RocksDB stores of an application in this JVM, as in Kafka Streams' memory-management
 * guide: a shared block cache that also holds index and filter blocks, with the memtables charged to it through a
 * {@link WriteBufferManager}. Without it each of the 6 tasks x 3 stores gets its own 50 MB cache and up to
 * 3 x 16 MB of memtables, which is where an instance's native memory grows with its partition count.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

    /** Streams config key of the budget in bytes, set by the app from {@code rocksdb.memory.bytes}. */
    public static final String MEMORY_BYTES_CONFIG = "statesync.rocksdb.memory.bytes";

    /** The share of the budget that memtables may take; the rest caches data, index and filter blocks. */
    private static final double MEMTABLE_SHARE = 0.5;
    private static final double INDEX_FILTER_PRIORITY_SHARE = 0.1;
    private static final long MAX_WRITE_BUFFER = 16L * 1024 * 1024;

    private static final Map<String, Budget> BUDGETS = new HashMap<>();
    private static final Map<Options, String> USERS = new IdentityHashMap<>();

    /** Freed when the last store using it closes, so that a JVM running many apps (tests) does not accumulate caches. */
    private record Budget(Cache cache, WriteBufferManager writeBuffers, long bytes, AtomicInteger stores) {
        static Budget of(long bytes) {
            Cache cache = new LRUCache(bytes, -1, false, INDEX_FILTER_PRIORITY_SHARE);
            return new Budget(cache, new WriteBufferManager((long) (bytes * MEMTABLE_SHARE), cache), bytes, new AtomicInteger());
        }

        void free() {
            writeBuffers.close();
            cache.close();
        }
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        long bytes = Long.parseLong(String.valueOf(configs.get(MEMORY_BYTES_CONFIG)));
        // Per application id: two apps in one JVM (tests, benchmarks) each keep their own budget.
        Budget budget = acquire(configs.get(StreamsConfig.APPLICATION_ID_CONFIG) + "/" + bytes, bytes, options);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(budget.cache());
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(budget.writeBuffers());
        options.setWriteBufferSize(Math.min(MAX_WRITE_BUFFER, Math.max(1024 * 1024, budget.bytes() / 16)));
        options.setMaxWriteBufferNumber(2);
        options.setTableFormatConfig(table);
        // A restart with kept state opens every store (6 tasks x 3 stores) inside new KafkaStreams(...); by default
        // RocksDB then reads the table properties of many SST files to refresh compaction statistics, and checks every
        // file's size. Sampled kept starts spent most of start() in RocksDB.open.
        options.setSkipStatsUpdateOnDbOpen(true);
        options.setSkipCheckingSstFileSizesOnDbOpen(true);
    }

    private static synchronized Budget acquire(String key, long bytes, Options options) {
        Budget budget = BUDGETS.computeIfAbsent(key, k -> Budget.of(bytes));
        budget.stores().incrementAndGet();
        USERS.put(options, key);
        return budget;
    }

    /** Streams closes the store's Options after this; the shared cache goes only with the last store. */
    @Override
    public void close(String storeName, Options options) {
        synchronized (BoundedRocksDbMemory.class) {
            String key = USERS.remove(options);
            Budget budget = key == null ? null : BUDGETS.get(key);
            if (budget != null && budget.stores().decrementAndGet() == 0) {
                BUDGETS.remove(key);
                budget.free();
            }
        }
    }
}
