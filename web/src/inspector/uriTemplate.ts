// RFC 6570 URI templates for MCP resource templates: the variables a template names (for the
// form) and its expansion with the form's values, by the `url-template` package (every level,
// prefix `{var:3}` and explode `{list*}` included). A value left empty in the form means "not
// given", so it is left out rather than expanded as an empty string.
import { parseTemplate } from 'url-template';

const EXPR = /\{([+#./;?&]?)([^}]+)\}/g;

export function templateVariables(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(EXPR)) {
    for (const v of m[2].split(',')) {
      const name = v.trim().replace(/[*]$/, '').replace(/:\d+$/, '');
      if (!out.includes(name)) out.push(name);
    }
  }
  return out;
}

export function expandTemplate(template: string, values: Record<string, string | string[]>): string {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && !(Array.isArray(v) && v.length === 0)));
  return parseTemplate(template).expand(given);
}
