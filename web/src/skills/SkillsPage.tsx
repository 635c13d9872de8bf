// The Skills tab (SEP-2640): the skills a server lists, with their frontmatter and file
// manifest. Nothing is read until a skill is loaded; loading reads SKILL.md and every listed
// file, checks each against the manifest's size and digest and the frontmatter against the
// entry, and shows what passed — and what failed, which stops loading. A server that does not
// declare the extension is not asked (`skills/list` would only fail): the page says so.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import type { SkillLoadView } from '../api/types.gen';
import { NeedsServer } from '../inspector/NeedsServer';
import { useSelectedServer, useServer } from '../servers/store';
import { modernApi, type Skill } from '../modern/api';
import { Button } from '../ui/Button';
import { JsonTree } from '../ui/JsonTree';
import { Markdown } from '../ui/Markdown';
import { Loading } from '../ui/Spinner';
import { EmptyState, ErrorState } from '../ui/States';
import { ItemList } from '../ui/ItemList';

const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

export function SkillsPage() {
  const server = useSelectedServer();
  return <NeedsServer server={server}>{(server) => <DeclaredSkills key={server} server={server} />}</NeedsServer>;
}

/** Whether an initialize result declares the skills extension (`capabilities.extensions`, or
 * `experimental` where a pre-2026 server puts it). */
export function declaresSkills(info: unknown): boolean {
  const caps = (info as { capabilities?: Record<string, Record<string, unknown> | undefined> } | null)?.capabilities;
  return !!(caps?.extensions?.[SKILLS_EXTENSION] ?? caps?.experimental?.[SKILLS_EXTENSION]);
}

function DeclaredSkills({ server }: { server: string }) {
  const view = useServer(server);
  if (declaresSkills(view?.info)) return <Skills server={server} />;
  return (
    <div className="page" data-testid="skills-page">
      <EmptyState page="skills" title={`${server} offers no skills`} testId="no-skills-extension">
        Its initialize result does not declare the skills extension (<code>{SKILLS_EXTENSION}</code>), so mcplab does not ask it for any. Pick a server that does
        in the selector above.
      </EmptyState>
    </div>
  );
}

/** A server's skills: under its `['list', server]` queries, so a new connection or a resync
 * refetches them (`useQueryInvalidation`); fetched again whenever the page mounts, since no
 * event says a server's skills changed. */
function useSkills(server: string) {
  return useQuery({
    queryKey: ['list', server, 'skills'],
    queryFn: () => modernApi.skills(server).then((r) => r.skills ?? []),
    refetchOnMount: 'always',
  });
}

function Skills({ server }: { server: string }) {
  const q = useSkills(server);
  const [selected, setSelected] = useState<string | null>(null);
  const skills = q.data ?? null;
  // A retry shows the spinner, not the old error.
  if (q.error && !q.isFetching) return <ErrorState title="Could not list skills" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />;
  if (!skills || q.error) return <Loading />;
  const skill = skills.find((s) => s.uri === selected) ?? null;
  return (
    <div className="page inspector" data-testid="skills-page">
      <aside className="side-list" aria-label="Skills">
        <div className="side-list-head">
          <h2 className="side-list-title">Skills</h2>
          <span className="muted small">{skills.length} from {server}</span>
        </div>
        {skills.length === 0 ? (
          <EmptyState page="skills" title="This server lists no skills" />
        ) : (
          <ItemList
            label="Skills"
            selected={selected}
            onSelect={setSelected}
            items={skills.map((s) => ({
              key: s.uri,
              testId: `skill-item-${s.frontmatter.name}`,
              content: (
                <>
                  <span className="item-name">{s.frontmatter.name}</span>
                  <span className="item-desc">{s.frontmatter.description}</span>
                </>
              ),
            }))}
          />
        )}
      </aside>
      <section className="detail">{skill ? <SkillDetail key={skill.uri} server={server} skill={skill} /> : <EmptyState page="skills" title="Select a skill">Pick a skill on the left to read its instructions and files.</EmptyState>}</section>
    </div>
  );
}

function SkillDetail({ server, skill }: { server: string; skill: Skill }) {
  const [loaded, setLoaded] = useState<SkillLoadView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    setBusy(true);
    setError(null);
    try {
      setLoaded(await modernApi.loadSkill(server, skill.uri));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const files = skill.resources === 'dynamic' ? null : skill.resources;
  return (
    <div data-testid="skill-detail">
      <h2>{skill.frontmatter.name}</h2>
      <p>{skill.frontmatter.description}</p>
      <JsonTree value={skill.frontmatter} expandDepth={1} />
      <h3>Files</h3>
      {files ? (
        <ul className="small mono" data-testid="skill-manifest">
          {files.map((f) => (
            <li key={f.uri}>
              {f.uri} · {f.size} B · {f.digest.slice(0, 19)}…
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">dynamic: no manifest, so nothing can be verified</p>
      )}
      <Button variant="primary" onClick={load} busy={busy} data-testid="skill-load">
        Load and verify
      </Button>
      {error && <ErrorState title="Could not load the skill" message={error} />}
      {loaded && (
        <div data-testid="skill-loaded">
          {loaded.problem ? (
            <div className="state state-error" role="alert" data-testid="skill-problem">
              <div className="state-title">Verification failed: the skill must not be used</div>
              <pre className="state-message">{loaded.problem}</pre>
            </div>
          ) : (
            <div className="badge badge-info" data-testid="skill-verified">
              every file matches the manifest
            </div>
          )}
          {loaded.files.map((f) => (
            <details key={f.uri} open={f.uri === skill.uri}>
              <summary className="small mono">
                {f.verified ? '✓' : '✗'} {f.uri} ({f.size} B)
              </summary>
              {f.text !== undefined && (f.uri.endsWith('.md') ? <Markdown text={f.text} /> : <pre className="raw">{f.text}</pre>)}
            </details>
          ))}
        </div>
      )}
    </div>
  );
}
