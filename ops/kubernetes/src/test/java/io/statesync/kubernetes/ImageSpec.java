package io.statesync.kubernetes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the runtime stage of the top-level Dockerfile gives the container: its user, ports, volume, entrypoint, command
 * and environment, read from the instructions after the last FROM.
 */
record ImageSpec(long uid, long gid, List<Integer> exposed, String volume, List<String> entrypoint, List<String> cmd,
                 Map<String, String> env) {

    private static final Pattern ENV_ENTRY = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ImageSpec repositoryImage;

    /** The top-level Dockerfile's runtime stage. */
    static synchronized ImageSpec ofRepository() {
        if (repositoryImage == null) {
            try {
                repositoryImage = read(RenderedOverlay.repositoryRoot().resolve("Dockerfile"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return repositoryImage;
    }

    static ImageSpec read(Path dockerfile) throws IOException {
        List<String> runtime = runtimeInstructions(Files.readString(dockerfile));
        String[] user = argument(runtime, "USER").split(":");
        List<Integer> exposed = new ArrayList<>();
        for (String port : argument(runtime, "EXPOSE").split("\\s+")) {
            exposed.add(Integer.parseInt(port.replace("/tcp", "")));
        }
        Map<String, String> env = new LinkedHashMap<>();
        runtime.stream().filter(i -> i.startsWith("ENV ")).forEach(i -> {
            Matcher m = ENV_ENTRY.matcher(i.substring(4));
            while (m.find()) {
                env.put(m.group(1), m.group(2).replaceAll("^\"|\"$", ""));
            }
        });
        List<String> volumes = execForm(argument(runtime, "VOLUME"));
        if (volumes.size() != 1) {
            throw new IllegalStateException("the image declares " + volumes + "; the manifests mount one data volume");
        }
        return new ImageSpec(Long.parseLong(user[0]), Long.parseLong(user.length > 1 ? user[1] : user[0]), exposed,
            volumes.get(0), execForm(argument(runtime, "ENTRYPOINT")), execForm(argument(runtime, "CMD")), env);
    }

    /** The instructions after the last FROM, continuation lines joined and comments dropped. */
    private static List<String> runtimeInstructions(String dockerfile) {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : dockerfile.split("\n")) {
            if (line.strip().startsWith("#")) {
                continue;
            }
            String part = line.strip();
            boolean continues = part.endsWith("\\");
            current.append(continues ? part.substring(0, part.length() - 1) : part).append(' ');
            if (!continues) {
                String instruction = current.toString().strip();
                if (instruction.startsWith("FROM ")) {
                    instructions.clear();
                } else if (!instruction.isEmpty()) {
                    instructions.add(instruction);
                }
                current.setLength(0);
            }
        }
        return instructions;
    }

    private static String argument(List<String> instructions, String keyword) {
        return instructions.stream().filter(i -> i.startsWith(keyword + " ")).reduce((first, last) -> last)
            .map(i -> i.substring(keyword.length() + 1).strip())
            .orElseThrow(() -> new IllegalStateException("the Dockerfile's runtime stage has no " + keyword));
    }

    private static List<String> execForm(String argument) {
        try {
            List<String> out = new ArrayList<>();
            for (JsonNode element : JSON.readTree(argument)) {
                out.add(element.asText());
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("not the exec (JSON) form: " + argument, e);
        }
    }
}
