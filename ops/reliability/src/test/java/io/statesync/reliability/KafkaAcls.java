package io.statesync.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.statesync.config.AppConfig;
import io.statesync.embedded.ExtraListener;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;

import static org.apache.kafka.common.acl.AclOperation.ALL;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SASL_SSL (PLAIN, users statesync and agent) on an embedded broker with an authorizer, and the ACLs that
 * docs/security.md lists for the statesync principal and for an agent.
 */
final class KafkaAcls {

    /** Deny by default; ANONYMOUS (the unauthenticated PLAINTEXT, CONTROLLER and SSL listeners) is the admin. */
    static final Map<String, String> AUTHORIZER = Map.of("authorizer.class.name",
        "org.apache.kafka.metadata.authorizer.StandardAuthorizer", "super.users", "User:ANONYMOUS", "sasl.enabled.mechanisms", "PLAIN");

    private KafkaAcls() {
    }

    static ExtraListener saslSslListener(TlsMaterial tls) {
        Map<String, String> s = new LinkedHashMap<>(ExtraListener.ssl(tls.keyStore(), tls.password()).settings());
        s.put("sasl.enabled.mechanisms", "PLAIN");
        s.put("plain.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " user_statesync=\"statesync-pw\" user_agent=\"agent-pw\";");
        return new ExtraListener("SASL_SSL", "SASL_SSL", s);
    }

    static Map<String, Object> clientSecurity(TlsMaterial tls, String user, String password) {
        Map<String, Object> p = new HashMap<>();
        p.put("kafka.security.protocol", "SASL_SSL");
        p.put("kafka.sasl.mechanism", "PLAIN");
        p.put("kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
            + user + "\" password=\"" + password + "\";");
        p.put("kafka.ssl.truststore.location", tls.trustStore().toString());
        p.put("kafka.ssl.truststore.password", tls.password());
        p.put("kafka.ssl.truststore.type", "PKCS12");
        return p;
    }

    static AppConfig withPrincipal(AppConfig config, TlsMaterial tls, String user, String password) {
        Map<String, Object> props = new HashMap<>(config.originals());
        props.putAll(clientSecurity(tls, user, password));
        return new AppConfig(props);
    }

    /** The tables of docs/security.md, for this run's topic prefix and application id. */
    static List<AclBinding> documented(AppConfig config) {
        String prefix = config.topicPrefix();
        String appId = config.getString(AppConfig.APPLICATION_ID);
        List<AclBinding> acls = new ArrayList<>();
        acls.addAll(allow("statesync", ResourceType.TOPIC, prefix, PatternType.PREFIXED, DESCRIBE, READ, WRITE, DESCRIBE_CONFIGS, CREATE));
        acls.addAll(allow("statesync", ResourceType.TOPIC, appId + "-", PatternType.PREFIXED, ALL));
        acls.addAll(allow("statesync", ResourceType.GROUP, appId, PatternType.LITERAL, READ, DESCRIBE));
        acls.addAll(allow("statesync", ResourceType.TRANSACTIONAL_ID, appId + "-", PatternType.PREFIXED, WRITE, DESCRIBE));
        acls.addAll(allow("agent", ResourceType.TOPIC, prefix + "corrections", PatternType.LITERAL, READ, DESCRIBE));
        acls.addAll(allow("agent", ResourceType.TOPIC, prefix + "observed", PatternType.LITERAL, WRITE, DESCRIBE));
        return acls;
    }

    private static List<AclBinding> allow(String user, ResourceType type, String name, PatternType pattern, AclOperation... ops) {
        List<AclBinding> out = new ArrayList<>();
        for (AclOperation op : ops) {
            out.add(new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW)));
        }
        return out;
    }

    static void grant(String plaintextBootstrap, List<AclBinding> acls) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, plaintextBootstrap))) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        }
    }

    static void assertRefusedCorrections(ScenarioTarget agent) {
        try (var producer = new KafkaProducer<>(agent.clientProps(), new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(agent.topics().corrections(), "k", "v")).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }
}
