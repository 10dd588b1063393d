import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api';
import { App } from './App';
import { startFirebase } from './firebase';
import { SessionProvider } from './session';
import { answerStore } from './taker';
import './styles.css';

const root = createRoot(document.getElementById('root')!);
startFirebase().then(
  (auth) =>
    root.render(
      <StrictMode>
        <SessionProvider auth={auth} api={createApi(auth)} answers={answerStore}>
          <App />
        </SessionProvider>
      </StrictMode>,
    ),
  (err: Error) =>
    root.render(
      <main>
        <h1>Exam</h1>
        <p role="alert">The app could not start: {err.message}</p>
      </main>,
    ),
);
