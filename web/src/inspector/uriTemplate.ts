// RFC 6570 URI templates (levels 1–3 plus explode-free level 4 operators), enough to fill
// in MCP resource templates from a form.
const EXPR = /\{([+#./;?&]?)([^}]+)\}/g;

export function templateVariables(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(EXPR)) {
    for (const v of m[2].split(',')) {
      const name = v.replace(/[*]$/, '').replace(/:\d+$/, '');
      if (!out.includes(name)) out.push(name);
    }
  }
  return out;
}

const enc = (s: string, reserved: boolean) =>
  reserved ? encodeURI(s).replace(/%25([0-9A-Fa-f]{2})/g, '%$1') : encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPR, (_all, op: string, list: string) => {
    const names = list.split(',').map((v) => v.replace(/[*]$/, '').replace(/:\d+$/, ''));
    const defined = names.filter((n) => values[n] !== undefined && values[n] !== '');
    if (!defined.length) return '';
    const reserved = op === '+' || op === '#';
    const sep = op === '' || op === '+' || op === '#' ? ',' : op === '?' || op === '&' ? '&' : op;
    const prefix = op === '' || op === '+' ? '' : op;
    const named = op === ';' || op === '?' || op === '&';
    return prefix + defined.map((n) => (named ? `${n}=${enc(values[n], reserved)}` : enc(values[n], reserved))).join(sep);
  });
}
