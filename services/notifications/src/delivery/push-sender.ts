/**
 * The port through which a batch leaves the platform. It never throws: every outcome, including
 * "no response at all", is a response the attempt log can record (code 0 = nothing received).
 */
export interface PushRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface PushResponse {
  code: number;
  body: string;
}

export interface PushSender {
  send(request: PushRequest, signal?: AbortSignal): Promise<PushResponse>;
}
