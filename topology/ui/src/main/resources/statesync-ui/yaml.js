// YAML text for a JSON value, so that specs and kind policies are edited as YAML. Only emitting is needed: the edited
// text goes to the server as application/yaml and the server parses it, so the page carries no YAML parser.

// A string stays plain only when it cannot be read back as anything but the same string: no quoting or flow
// characters, no comment or mapping indicator (": ", " #"), and no word a YAML 1.1 or 1.2 reader takes as a
// boolean, null or number.
const PLAIN = /^[A-Za-z_/][\w./@-]*(:[\w./@-]+)*$/;
const RESERVED = /^(true|false|yes|no|y|n|on|off|null|~|\.nan|\.inf)$/i;

/** The value as a YAML block document, ending with a newline; undefined members are left out, as JSON drops them. */
export function toYaml(value) {
  return lines(value).join('\n') + '\n';
}

export function scalar(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object') return '{}';
  return PLAIN.test(v) && !RESERVED.test(v) ? v : quoted(v);
}

// A JSON string is a valid YAML double-quoted scalar once the characters YAML reads as line breaks or refuses
// unescaped (DEL, C1 controls, the byte order mark) are escaped as well.
const quoted = (s) => JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g,
  (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));

const isBlock = (v) => v !== null && typeof v === 'object' && Object.keys(v).length > 0;

/** The lines of a value at indentation zero; a parent indents them under its key or after its "- ". */
function lines(v) {
  if (!isBlock(v)) return [scalar(v)];
  if (Array.isArray(v)) {
    return v.flatMap((item) => isBlock(item)
      ? lines(item).map((l, i) => (i === 0 ? '- ' : '  ') + l)
      : ['- ' + scalar(item === undefined ? null : item)]);
  }
  return Object.entries(v).filter(([, x]) => x !== undefined).flatMap(([k, x]) => isBlock(x)
    ? [scalar(k) + ':', ...lines(x).map((l) => '  ' + l)]
    : [scalar(k) + ': ' + scalar(x)]);
}
