package io.statesync.connect;

/** The version the plugins report to Connect. */
final class Versions {

    static final String PLUGIN = "0.1.0";

    private Versions() {
    }
}
