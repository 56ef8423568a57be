// Calls to the server's JSON API. Paths are relative, so they stay under the page's /TOKEN/ prefix.

/** An answer of 4xx/5xx: the server's {"error", "hint"}. */
export class ApiError extends Error {
  constructor(status, message, hint) {
    super(message);
    this.status = status;
    this.hint = hint || "";
  }
}

/** Send one request and return the parsed JSON answer, or throw an ApiError. */
export async function api(path, { method = "GET", body } = {}) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const answer = await readJson(response);
  if (!response.ok) {
    throw new ApiError(response.status, answer.error || `${response.status} ${response.statusText}`, answer.hint);
  }
  return answer;
}

async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return {};
  }
}

export const get = (path) => api(path);
export const post = (path, body) => api(path, { method: "POST", body });
export const put = (path, body) => api(path, { method: "PUT", body });
export const del = (path) => api(path, { method: "DELETE" });

/** Resolve after ms milliseconds (polling jobs and bot moves). */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
