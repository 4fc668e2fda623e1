package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * kubectl against kinds that CustomResourceDefinitions define: a definition applied and established, objects of its
 * group and version created, read, listed and deleted, a cluster-scoped kind, and definitions that Kubernetes refuses.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KubectlCustomResourceDefinitionIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static KubeTestApp app;
    private static Kubectl kubectl;

    static final String WIDGETS = """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: widgets.example.com
        spec:
          group: example.com
          scope: Namespaced
          names:
            plural: widgets
            singular: widget
            kind: Widget
            shortNames: [wdg]
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec:
                    type: object
                    description: What a widget should be.
                    required: [size]
                    properties:
                      size:
                        type: string
                        description: How big the widget is.
                        enum: [small, large]
                      color:
                        type: string
                        maxLength: 10
                        nullable: true
                        default: blue
                      replicas:
                        type: integer
                    x-kubernetes-validations:
                    - rule: "!has(self.replicas) || self.size != 'large' || self.replicas <= 3"
                      message: a large widget has at most 3 replicas
            additionalPrinterColumns:
            - name: Size
              type: string
              jsonPath: .spec.size
            selectableFields:
            - jsonPath: .spec.size
            - jsonPath: .spec.replicas
            subresources:
              status: {}
        """;

    static final String CLUSTERS = """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: regions.example.com
        spec:
          group: example.com
          scope: Cluster
          names: {plural: regions, singular: region, kind: Region}
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
        """;

    static final String DEPLOYMENTS = """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: deployments.apps
        spec:
          group: apps
          scope: Namespaced
          names: {plural: deployments, singular: deployment, kind: Deployment, shortNames: [deploy], categories: [all]}
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
                  status: {type: object, x-kubernetes-preserve-unknown-fields: true}
        """;

    /** An ordinary Deployment manifest, as a repository of manifests holds it. */
    static final String DEPLOYMENT = """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: shop
          namespace: apps
          labels: {app: shop}
        spec:
          replicas: 2
          selector:
            matchLabels: {app: shop}
          template:
            metadata:
              labels: {app: shop}
            spec:
              containers:
              - name: web
                image: nginx:1.27
                ports:
                - containerPort: 80
        """;

    @BeforeAll
    static void start() throws Exception {
        Kubectl.require();
        Map<String, Object> config = KubeTestApp.config("kubectl-crd");
        config.remove(ServerConfig.AUTH_TOKENS);
        app = KubeTestApp.start(config);
        kubectl = Kubectl.of(app);
        ok(WIDGETS, "apply", "-f", "-");
        ok(CLUSTERS, "apply", "-f", "-");
        ok(DEPLOYMENTS, "apply", "-f", "-");
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static Kubectl.Result ok(String stdin, String... args) throws Exception {
        Kubectl.Result r = kubectl.run(stdin, args);
        assertThat(r.exit()).as("kubectl %s: %s", String.join(" ", args), r.all()).isZero();
        return r;
    }

    private static String widget(String namespace, String name, String spec) {
        return "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: " + name + "\n  namespace: " + namespace
            + "\nspec:\n" + spec + "\n";
    }

    @Test
    void shouldEstablishADefinitionThatKubectlWaitsForAndListsWithItsCreationTime() throws Exception {
        Kubectl.Result waited = ok(null, "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=30s");
        JsonNode crd = JSON.readTree(ok(null, "get", "crd", "widgets.example.com", "-o", "json").out());

        assertThat(waited.out()).contains("customresourcedefinition.apiextensions.k8s.io/widgets.example.com condition met");
        assertThat(crd.path("apiVersion").asText()).isEqualTo("apiextensions.k8s.io/v1");
        assertThat(crd.path("kind").asText()).isEqualTo("CustomResourceDefinition");
        assertThat(crd.path("metadata").has("namespace")).isFalse();
        assertThat(crd.path("status").path("acceptedNames").path("kind").asText()).isEqualTo("Widget");
        assertThat(crd.path("status").path("storedVersions").get(0).asText()).isEqualTo("v1");
        Kubectl.Result table = ok(null, "get", "crd");
        assertThat(table.out().lines().findFirst().orElse("")).matches("NAME\\s+CREATED AT\\s*");
        assertThat(table.out()).contains("widgets.example.com").contains("regions.example.com")
            .containsPattern("widgets\\.example\\.com\\s+\\d{4}-\\d{2}-\\d{2}T");
    }

    @Test
    void shouldServeTheDefinedKindInItsGroupWithShortNamesAndPrinterColumns() throws Exception {
        Kubectl.Result applied = ok(widget("team-a", "w1", "  size: small"), "apply", "-f", "-");
        JsonNode w = JSON.readTree(ok(null, "get", "wdg", "w1", "-n", "team-a", "-o", "json", "--show-managed-fields").out());
        Kubectl.Result listed = ok(null, "get", "widgets.example.com", "-n", "team-a");
        Kubectl.Result resources = ok(null, "api-resources", "--api-group=example.com");

        assertThat(applied.out()).contains("widget.example.com/w1 created");
        assertThat(w.path("apiVersion").asText()).isEqualTo("example.com/v1");
        assertThat(w.path("kind").asText()).isEqualTo("Widget");
        assertThat(w.path("metadata").path("namespace").asText()).isEqualTo("team-a");
        assertThat(w.path("spec").path("size").asText()).isEqualTo("small");
        assertThat(w.path("metadata").path("managedFields").get(0).path("apiVersion").asText()).isEqualTo("example.com/v1");
        assertThat(listed.out().lines().findFirst().orElse("")).contains("NAME").contains("SYNC").contains("SIZE");
        assertThat(listed.out()).contains("w1").contains("small");
        assertThat(resources.out()).contains("widgets").contains("wdg").contains("example.com/v1").contains("Widget")
            .contains("regions");
    }

    @Test
    void shouldApplyAnOrdinaryDeploymentManifestUnchangedAndApplyItsChange() throws Exception {
        Kubectl.Result created = ok(DEPLOYMENT, "apply", "-f", "-");
        Kubectl.Result changed = ok(DEPLOYMENT.replace("replicas: 2", "replicas: 3"), "apply", "-f", "-");
        // kubectl merges a Deployment's containers by name, and says so in the patch's directives.
        String newImage = DEPLOYMENT.replace("replicas: 2", "replicas: 3").replace("nginx:1.27", "nginx:1.28")
            .replace("        - containerPort: 80", "        - containerPort: 80\n      - name: sidecar\n        image: envoy:1");
        Kubectl.Result merged = ok(newImage, "apply", "-f", "-");
        JsonNode d = JSON.readTree(ok(null, "get", "deploy", "shop", "-n", "apps", "-o", "json").out());
        Kubectl.Result all = ok(null, "get", "all", "-n", "apps");

        assertThat(created.out()).contains("deployment.apps/shop created");
        assertThat(changed.out()).contains("deployment.apps/shop configured");
        assertThat(d.path("apiVersion").asText()).isEqualTo("apps/v1");
        assertThat(d.path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(d.path("spec").path("template").path("spec").path("containers").get(0).path("image").asText())
            .isEqualTo("nginx:1.28");
        assertThat(d.path("spec").path("template").path("spec").path("containers").get(0).path("ports").get(0)
            .path("containerPort").asInt()).as("the list item's other fields are kept").isEqualTo(80);
        assertThat(merged.out()).contains("deployment.apps/shop configured");
        assertThat(d.path("spec").path("template").path("spec").path("containers")).extracting(c -> c.path("name").asText())
            .containsExactly("web", "sidecar");
        assertThat(all.out()).contains("shop");
    }

    @Test
    void shouldApplyTheSchemasDefaultsAndPruneAnUnknownFieldThatValidationLetsThrough() throws Exception {
        ok(widget("schema", "plain", "  size: small\n  extra: dropped"), "apply", "--validate=false", "-f", "-");
        JsonNode w = JSON.readTree(ok(null, "get", "widget", "plain", "-n", "schema", "-o", "json").out());

        assertThat(w.path("spec").path("color").asText()).isEqualTo("blue");
        assertThat(w.path("spec").has("extra")).isFalse();
    }

    @Test
    void shouldRefuseAnInvalidWidgetNamingEachField() throws Exception {
        Kubectl.Result r = kubectl.run(widget("schema", "bad", "  size: huge\n  color: far-too-long-a-color"), "apply", "-f", "-");
        Kubectl.Result rule = kubectl.run(widget("schema", "big", "  size: large\n  replicas: 5"), "apply", "-f", "-");
        Kubectl.Result missing = kubectl.run(widget("schema", "none", "  color: red"), "apply", "-f", "-");
        Kubectl.Result strict = kubectl.run(widget("schema", "strict", "  size: small\n  extra: 1"), "apply", "-f", "-");
        Kubectl.Result absent = kubectl.run(null, "get", "widget", "bad", "-n", "schema");

        assertThat(r.exit()).isNotZero();
        assertThat(r.all()).contains("The Widget \"bad\" is invalid")
            .contains("spec.size: Unsupported value: \"huge\": supported values: \"small\", \"large\"")
            .contains("spec.color: Too long: may not be longer than 10");
        assertThat(rule.all()).contains("a large widget has at most 3 replicas");
        assertThat(missing.all()).contains("spec.size: Required value");
        assertThat(strict.all()).contains("strict decoding error: unknown field \"spec.extra\"");
        assertThat(absent.all()).contains("NotFound");
    }

    @Test
    void shouldRefuseADefinitionWhoseSchemaIsNotStructural() throws Exception {
        String bad = CLUSTERS.replace("regions", "rivers").replace("region", "river").replace("Region", "River")
            .replace("openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}",
                "openAPIV3Schema: {type: object, properties: {spec: {properties: {a: {type: string}}}}}");
        Kubectl.Result r = kubectl.run(bad, "create", "-f", "-");

        assertThat(r.exit()).isNotZero();
        assertThat(r.all()).contains("spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value");
    }

    @Test
    void shouldSelectByTheDefinitionsSelectableFieldsAndRefuseOtherFieldLabels() throws Exception {
        ok(widget("select", "small-one", "  size: small"), "apply", "-f", "-");
        ok(widget("select", "large-one", "  size: large\n  replicas: 2"), "apply", "-f", "-");

        Kubectl.Result small = ok(null, "get", "widgets", "-n", "select", "--field-selector", "spec.size=small", "-o", "name");
        Kubectl.Result notTwo = ok(null, "get", "widgets", "-n", "select", "--field-selector", "spec.replicas!=2", "-o", "name");
        Kubectl.Result unknown = kubectl.run(null, "get", "widgets", "-n", "select", "--field-selector", "spec.color=blue");

        assertThat(small.out().strip()).isEqualTo("widget.example.com/small-one");
        assertThat(notTwo.out().strip()).isEqualTo("widget.example.com/small-one");
        assertThat(unknown.exit()).isNotZero();
        assertThat(unknown.err()).contains("field label not supported: spec.color");
    }

    @Test
    void shouldRefuseSelectableFieldsThatAreNotSimplePathsToScalarsOfTheSchema() throws Exception {
        String bad = WIDGETS.replace("widgets.example.com", "gadgets.example.com").replace("plural: widgets", "plural: gadgets")
            .replace("singular: widget", "singular: gadget").replace("kind: Widget", "kind: Gadget")
            .replace("shortNames: [wdg]", "shortNames: [gdg]")
            .replace("- jsonPath: .spec.replicas", "- jsonPath: .spec.missing\n    - jsonPath: .metadata.name\n    - jsonPath: .spec");
        Kubectl.Result refused = kubectl.run(bad, "apply", "-f", "-");

        assertThat(refused.exit()).isNotZero();
        assertThat(refused.err()).contains("spec.versions[0].selectableFields[1].jsonPath")
            .contains("must not point to metadata fields")
            .contains("must point to a field of type string, boolean or integer");
    }

    @Test
    void shouldExplainTheDefinedKindFromItsSchema() throws Exception {
        Kubectl.Result spec = ok(null, "explain", "widget.spec");
        Kubectl.Result size = ok(null, "explain", "widgets.spec.size");

        assertThat(spec.out()).contains("GROUP:      example.com").contains("What a widget should be.")
            .contains("size").contains("color");
        assertThat(size.out()).contains("How big the widget is.");
    }

    @Test
    void shouldListAClusterScopedKindWithoutANamespace() throws Exception {
        ok("apiVersion: example.com/v1\nkind: Region\nmetadata:\n  name: eu-west\nspec:\n  zones: 3\n", "apply", "-f", "-");
        Kubectl.Result listed = ok(null, "get", "regions");
        JsonNode region = JSON.readTree(ok(null, "get", "region", "eu-west", "-o", "json").out());
        Kubectl.Result namespaced = kubectl.run(null, "get", "--raw", "/apis/example.com/v1/namespaces/default/regions/eu-west");

        assertThat(listed.out()).contains("eu-west");
        assertThat(region.path("metadata").has("namespace")).isFalse();
        assertThat(region.path("spec").path("zones").asInt()).isEqualTo(3);
        assertThat(namespaced.exit()).isNotZero();
        assertThat(namespaced.all()).contains("NotFound");
    }

    @Test
    void shouldServeTheStatusSubresourceOnlyWhereTheVersionDeclaresIt() throws Exception {
        ok("apiVersion: example.com/v1\nkind: Region\nmetadata:\n  name: us-east\nspec:\n  zones: 2\n", "apply", "-f", "-");
        ok(widget("status", "w", "  size: small"), "apply", "-f", "-");

        Kubectl.Result regionStatus = kubectl.run(null, "get", "--raw", "/apis/example.com/v1/regions/us-east/status");
        Kubectl.Result regionPatch = kubectl.run(null, "patch", "region", "us-east", "--subresource=status", "--type=merge",
            "-p", "{\"status\":{\"ready\":true}}");
        Kubectl.Result widgetStatus = ok(null, "get", "--raw", "/apis/example.com/v1/namespaces/status/widgets/w/status");
        JsonNode discovery = JSON.readTree(ok(null, "get", "--raw", "/apis/example.com/v1").out());

        assertThat(regionStatus.exit()).isNotZero();
        assertThat(regionStatus.all()).contains("NotFound");
        assertThat(regionPatch.exit()).isNotZero();
        assertThat(widgetStatus.out()).contains("\"name\":\"w\"");
        assertThat(discovery.path("resources").findValuesAsText("name")).contains("widgets/status")
            .doesNotContain("regions/status");
    }

    @Test
    void shouldDeleteAnObjectOfADefinedKind() throws Exception {
        ok(widget("team-b", "gone", "  size: large"), "apply", "-f", "-");
        Kubectl.Result deleted = ok(null, "delete", "widget", "gone", "-n", "team-b", "--wait=true", "--timeout=30s");
        Kubectl.Result after = kubectl.run(null, "get", "widget", "gone", "-n", "team-b");

        assertThat(deleted.out()).contains("widget.example.com \"gone\" deleted");
        assertThat(after.exit()).isNotZero();
        assertThat(after.all()).contains("NotFound");
    }

    /** A namespaced kind that keeps any field, defined like the regions. */
    static final String GADGETS = CLUSTERS.replace("regions", "gadgets").replace("region", "gadget")
        .replace("Region", "Gadget").replace("scope: Cluster", "scope: Namespaced");

    private static String gadget(String namespace, String name, String finalizers) {
        return "apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: " + name + "\n  namespace: " + namespace
            + "\n  finalizers: " + finalizers + "\nspec:\n  size: 1\n";
    }

    @Test
    void shouldDeleteEveryObjectOfADeletedDefinitionBeforeTheDefinitionGoes() throws Exception {
        ok(GADGETS, "apply", "-f", "-");
        ok(null, "wait", "--for=condition=Established", "crd/gadgets.example.com", "--timeout=30s");
        ok(gadget("gx", "g1", "[]"), "apply", "-f", "-");
        ok(gadget("gy", "g2", "[]"), "apply", "-f", "-");
        ok(gadget("gx", "held", "[example.com/hold]"), "apply", "-f", "-");
        JsonNode created = JSON.readTree(ok(null, "get", "crd", "gadgets.example.com", "-o", "json").out());

        ok(null, "delete", "crd", "gadgets.example.com", "--wait=false");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
            .until(() -> ok(null, "get", "gadgets", "-A", "-o", "name").out().strip().equals("gadget.example.com/held"));
        JsonNode terminating = JSON.readTree(ok(null, "get", "crd", "gadgets.example.com", "-o", "json").out());
        Kubectl.Result late = kubectl.run(gadget("gx", "late", "[]"), "create", "-f", "-");
        ok(null, "patch", "gadget", "held", "-n", "gx", "--type", "merge", "-p", "{\"metadata\":{\"finalizers\":null}}");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
            .until(() -> kubectl.run(null, "get", "crd", "gadgets.example.com").all().contains("NotFound"));

        assertThat(created.path("metadata").path("finalizers")).extracting(JsonNode::asText)
            .containsExactly("customresourcecleanup.apiextensions.k8s.io");
        assertThat(terminating.path("status").path("conditions").toString()).contains("\"type\":\"Terminating\"")
            .contains("InstanceDeletionInProgress");
        assertThat(late.exit()).isNotZero();
        assertThat(late.all()).contains("create not allowed while custom resource definition is terminating");
        assertThat(kubectl.run(null, "get", "gadgets", "-A").all()).as("the kind is served no more").contains("NotFound");
    }

    @Test
    void shouldRefuseADefinitionWhoseNameIsNotItsPluralAndGroup() throws Exception {
        String bad = WIDGETS.replace("name: widgets.example.com", "name: gadgets.example.com");
        Kubectl.Result r = kubectl.run(bad, "create", "-f", "-");

        assertThat(r.exit()).isNotZero();
        assertThat(r.all()).contains("metadata.name").contains("must be spec.names.plural+\".\"+spec.group");
    }

    @Test
    void shouldRefuseADefinitionWhoseKindAnotherDefinitionServes() throws Exception {
        String clash = WIDGETS.replace("widgets", "gizmos").replace("singular: widget", "singular: gizmo")
            .replace("shortNames: [wdg]", "shortNames: [gz]");
        Kubectl.Result r = kubectl.run(clash, "create", "-f", "-");

        assertThat(r.exit()).isNotZero();
        assertThat(r.all()).contains("spec.names.kind").contains("is already in use by widgets.example.com");
    }

    @Test
    void shouldRefuseADefinitionWithoutExactlyOneStorageVersion() throws Exception {
        String none = CLUSTERS.replace("regions", "zones").replace("region", "zone").replace("Region", "Zone")
            .replace("storage: true", "storage: false");
        Kubectl.Result r = kubectl.run(none, "create", "-f", "-");

        assertThat(r.exit()).isNotZero();
        assertThat(r.all()).contains("must have exactly one version marked as storage version");
    }
}
