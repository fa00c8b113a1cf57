import type { DeskApi } from '../../shared/api.js';
import { bridgeApi } from './bridge.js';
import { httpApi, stripTokenFromAddress } from './http.js';

/** The bridge when the Electron preload put one on the window, the HTTP host otherwise. */
export function pickApi(): DeskApi {
  if (window.layoverDesk) return bridgeApi(window.layoverDesk);
  stripTokenFromAddress();
  return httpApi();
}
