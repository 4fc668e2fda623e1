package io.statesync.view.internal;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A read-only mapping of part of a view snapshot's values ({@code buffer}), the open file it maps and where in the
 * file the mapping starts. The channel stays open while resources point into the mapping (the JDK closes it when the
 * last reference goes), so that the next snapshot can copy unchanged values file to file without reading them here.
 */
record MappedRegion(ByteBuffer buffer, FileChannel file, long filePosition) {
}
