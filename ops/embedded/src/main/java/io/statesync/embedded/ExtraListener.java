package io.statesync.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A listener a child-process broker opens on 127.0.0.1 next to its PLAINTEXT one (which it keeps for itself, for
 * readiness checks and for clients that need no security), e.g. an SSL listener with a key store made by a test.
 *
 * @param name             listener name, upper case, e.g. {@code SSL}; not PLAINTEXT or CONTROLLER
 * @param securityProtocol {@code SSL}, {@code SASL_SSL}, {@code SASL_PLAINTEXT} or {@code PLAINTEXT}
 * @param settings         broker settings for this listener only, without the {@code listener.name.<name>.} prefix
 *                         (e.g. {@code ssl.keystore.location})
 */
public record ExtraListener(String name, String securityProtocol, Map<String, String> settings) {
    private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9_]*");

    public ExtraListener {
        if (!NAME.matcher(name).matches() || name.equals("PLAINTEXT") || name.equals("CONTROLLER")) {
            throw new IllegalArgumentException("Listener name must be upper case and not PLAINTEXT or CONTROLLER: " + name);
        }
        settings = Map.copyOf(settings);
    }

    /** An {@code SSL} listener serving the certificate in a PKCS12 key store; clients are not asked for one. */
    public static ExtraListener ssl(Path keyStore, String password) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("ssl.keystore.location", keyStore.toAbsolutePath().toString());
        s.put("ssl.keystore.password", password);
        s.put("ssl.key.password", password);
        s.put("ssl.keystore.type", "PKCS12");
        return new ExtraListener("SSL", "SSL", s);
    }
}
