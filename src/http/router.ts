/**
 * Method + path routing. Static paths are one map look-up; patterns match segment by segment,
 * where `:name` captures a segment and `:name.ext` captures it without a literal suffix.
 */
import type { Reply } from './reply.js';
import type { Request } from './request.js';

export type Handler = (req: Request) => Reply | Promise<Reply>;

export interface RouteOptions {
  /** Public API routes send CORS headers and answer preflights; dashboard routes do not. */
  public: boolean;
}

export interface Route extends RouteOptions {
  method: string;
  pattern: string;
  handler: Handler;
}

interface Segment {
  literal?: string;
  param?: string;
  suffix?: string;
}

interface PatternRoute {
  route: Route;
  segments: Segment[];
}

export type Match =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[]; public: boolean }
  | { kind: 'none' };

function parsePattern(pattern: string): Segment[] {
  return pattern
    .split('/')
    .slice(1)
    .map((s) => {
      if (!s.startsWith(':')) return { literal: s };
      const dot = s.indexOf('.');
      return dot < 0 ? { param: s.slice(1) } : { param: s.slice(1, dot), suffix: s.slice(dot) };
    });
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (seg.literal !== undefined) {
      if (seg.literal !== part) return null;
    } else if (seg.suffix) {
      if (!part.endsWith(seg.suffix) || part.length === seg.suffix.length) return null;
      params[seg.param!] = part.slice(0, -seg.suffix.length);
    } else {
      if (part === '') return null;
      params[seg.param!] = part;
    }
  }
  return params;
}

export class Router {
  private readonly exact = new Map<string, Map<string, Route>>();
  private readonly patterns: PatternRoute[] = [];

  add(method: string, pattern: string, handler: Handler, options: RouteOptions): void {
    const route: Route = { method, pattern, handler, ...options };
    if (pattern.includes(':')) {
      this.patterns.push({ route, segments: parsePattern(pattern) });
      return;
    }
    let byMethod = this.exact.get(pattern);
    if (!byMethod) this.exact.set(pattern, (byMethod = new Map()));
    byMethod.set(method, route);
  }

  match(method: string, path: string): Match {
    const byMethod = this.exact.get(path);
    if (byMethod) {
      const route = byMethod.get(method);
      if (route) return { kind: 'route', route, params: {} };
      const any = byMethod.values().next().value as Route;
      return { kind: 'wrong-method', allowed: [...byMethod.keys()], public: any.public };
    }
    const parts = path.split('/').slice(1);
    const allowed: Route[] = [];
    for (const { route, segments } of this.patterns) {
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'route', route, params };
      allowed.push(route);
    }
    if (allowed.length) return { kind: 'wrong-method', allowed: allowed.map((r) => r.method), public: allowed[0]!.public };
    return { kind: 'none' };
  }
}
