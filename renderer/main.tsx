import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickApi } from './api/index.js';
import { App } from './App.js';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App api={pickApi()} />
  </StrictMode>,
);
