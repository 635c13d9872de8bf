// The playground's screenshot: the server renders the same input under the same conditions in
// headless Chromium (`POST /api/apps/render`) and the PNG is saved as a download.
import { request } from '../api/client';
import type { AppRenderResult, AppRenderSpec } from '../api/types.gen';

export async function screenshot(spec: AppRenderSpec): Promise<AppRenderResult> {
  const result = await request<AppRenderResult>('POST', '/api/apps/render', spec);
  const bytes = Uint8Array.from(atob(result.pngBase64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'image/png' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${spec.tool}-${spec.width}x${spec.height}.png`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return result;
}
