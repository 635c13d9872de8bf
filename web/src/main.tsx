// The entry point: the theme applied before the first paint, the app's first requests sent
// (`boot.ts`), then the page this URL asks for (the shell, the sign-in page for a login URL, or
// the headless renderer's render page).
import { StrictMode, lazy, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startBoot } from './boot';
import { SignInPage } from './signin/SignInPage';
import { applyTheme, initialTheme } from './settings/theme';
import './styles.css';

// `#/render/<spec>` is the headless renderer's page: the app alone, no shell.
const RenderPage = lazy(() => import('./render/RenderPage').then((m) => ({ default: m.RenderPage })));
const rendering = window.location.hash.startsWith('#/render/');
// `/auth?code=…`: a login URL; the tab signs in, then moves on.
const signingIn = window.location.pathname === '/auth';

applyTheme(initialTheme());
if (!signingIn && !rendering) startBoot();
createRoot(document.getElementById('root')!).render(
  signingIn ? (
    <SignInPage />
  ) : rendering ? (
    <Suspense fallback={null}>
      <RenderPage />
    </Suspense>
  ) : (
    <StrictMode>
      <App />
    </StrictMode>
  ),
);
