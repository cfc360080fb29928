import type { z } from 'zod';
import { hostEvents } from './hostEvents';
import { hostMethods } from './hostMethods';
import type { Side } from './side';
import { webviewEvents } from './webviewEvents';
import { webviewMethods } from './webviewMethods';

/**
 * The two ends of Keel's bus. Each side lists what it answers and what it emits, so a
 * bus typed <HostSide, WebviewSide> can only handle host methods and call webview ones.
 */
export const hostSide = { methods: hostMethods, events: hostEvents } satisfies Side;
export const webviewSide = { methods: webviewMethods, events: webviewEvents } satisfies Side;

export type HostSide = typeof hostSide;
export type WebviewSide = typeof webviewSide;

type AllMethods = HostSide['methods'] & WebviewSide['methods'];
type AllEvents = HostSide['events'] & WebviewSide['events'];

/** Method names are unique across both directions (a unit test checks). */
export type MethodName = keyof AllMethods & string;
export type EventName = keyof AllEvents & string;

export type RequestParams<M extends MethodName> = z.infer<AllMethods[M]['params']>;
export type RequestResult<M extends MethodName> = z.infer<AllMethods[M]['result']>;
export type EventData<E extends EventName> = z.infer<AllEvents[E]>;

export type HostMethodName = keyof HostSide['methods'] & string;
export type WebviewMethodName = keyof WebviewSide['methods'] & string;
export type HostEventName = keyof HostSide['events'] & string;
export type WebviewEventName = keyof WebviewSide['events'] & string;
