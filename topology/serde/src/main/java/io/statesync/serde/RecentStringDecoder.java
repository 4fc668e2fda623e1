package io.statesync.serde;

import io.statesync.serde.internal.RecentStrings;

/**
 * Decodes UTF-8 strings the way statesync's deserializers do: through one thread's table of recent short strings, so
 * that a string decoded again is the instance decoded before. For measuring that table against a new String each
 * (the benchmarks); not thread-safe, one per thread.
 */
public final class RecentStringDecoder {

    private final RecentStrings recent = new RecentStrings();

    /** The string that the first {@code length} bytes of {@code utf8} decode to. */
    public String decode(byte[] utf8, int length) {
        return recent.decode(utf8, length);
    }
}
