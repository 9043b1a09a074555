import { randomBytes } from 'node:crypto';

/**
 * The nightbench agent: a small HTTP service each leased instance runs from its user-data, once
 * the target is installed, so that the runner can start the suite's processes fresh for every
 * workload on hosts it booted once. Every call carries the run's token. It also reports the spot
 * interruption notice from the instance metadata (`spot/instance-action`), and moves the host's own
 * shutdown later while the runner's lease is held (`/extend`).
 */

/** A leased instance, as the runner reaches it. */
export interface AgentHost {
  instanceId: string;
  /** The address the runner uses (private, or public with publicAddress). */
  address: string;
}

export interface AgentStatus {
  /** Processes started through the agent that have ended, with their exit codes. */
  exited: Record<string, number>;
  /** The spot instance-action notice, when AWS has announced an interruption. */
  interruption?: string;
}

export interface HostAgent {
  /** Starts a process on the host in a session of its own. */
  start(host: AgentHost, name: string, argv: string[], env: Record<string, string>): Promise<void>;
  /** Ends (TERM, then KILL) every process the agent started on the host. */
  stopAll(host: AgentHost): Promise<void>;
  status(host: AgentHost): Promise<AgentStatus>;
  /** Moves the host's own shutdown to `minutes` from now (it scheduled one at boot). */
  extend(host: AgentHost, minutes: number): Promise<void>;
}

export const newAgentToken = (): string => randomBytes(24).toString('hex');

/** The agent's source, run by the instance's Python with NIGHTBENCH_AGENT_TOKEN and NIGHTBENCH_AGENT_PORT set. */
export const agentScript = String.raw`
import http.server, json, os, signal, subprocess, urllib.request
TOKEN, PORT, META = os.environ["NIGHTBENCH_AGENT_TOKEN"], int(os.environ["NIGHTBENCH_AGENT_PORT"]), "http://169.254.169.254/latest/"
procs = {}
def interruption():
    try:
        token = urllib.request.urlopen(urllib.request.Request(META + "api/token", method="PUT", headers={"X-aws-ec2-metadata-token-ttl-seconds": "60"}), timeout=1).read().decode()
        return urllib.request.urlopen(urllib.request.Request(META + "meta-data/spot/instance-action", headers={"X-aws-ec2-metadata-token": token}), timeout=1).read().decode()
    except Exception:
        return None
def stop_all():
    for p in procs.values():
        if p.poll() is None: os.killpg(p.pid, signal.SIGTERM)
    for p in procs.values():
        try: p.wait(5)
        except subprocess.TimeoutExpired: pass
        try: os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError: pass
    procs.clear()
class Agent(http.server.BaseHTTPRequestHandler):
    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
    def allowed(self):
        if self.headers.get("Authorization") == "Bearer " + TOKEN: return True
        self.reply(403, {"error": "bad token"}); return False
    def do_GET(self):
        if self.allowed(): self.reply(200, {"exited": {n: p.returncode for n, p in procs.items() if p.poll() is not None}, "interruption": interruption()})
    def do_POST(self):
        if not self.allowed(): return
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if self.path == "/start":
            os.makedirs("/var/lib/nightbench", exist_ok=True)
            log = open("/var/log/nightbench-%s.log" % body["name"], "ab")
            procs[body["name"]] = subprocess.Popen(body["argv"], env={**os.environ, **body["env"]}, cwd="/var/lib/nightbench", stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        elif self.path == "/stop":
            stop_all()
        elif self.path == "/extend":
            subprocess.run(["shutdown", "-h", "+%d" % int(body["minutes"])], check=False)
        self.reply(200, {})
    def log_message(self, *args): pass
http.server.ThreadingHTTPServer(("0.0.0.0", PORT), Agent).serve_forever()
`;

/** The agent over HTTP: what production uses (tests inject their own, moto's addresses are data only). */
export function httpAgent(token: string, port: number): HostAgent {
  const call = async (host: AgentHost, method: 'GET' | 'POST', route: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`http://${host.address}:${port}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`the agent on ${host.instanceId} answered ${response.status} to ${method} ${route}`);
    return response.json();
  };
  return {
    start: async (host, name, argv, env) => void (await call(host, 'POST', '/start', { name, argv, env })),
    stopAll: async (host) => void (await call(host, 'POST', '/stop', {})),
    extend: async (host, minutes) => void (await call(host, 'POST', '/extend', { minutes })),
    status: async (host) => {
      const answer = (await call(host, 'GET', '/status')) as { exited?: Record<string, number>; interruption?: string | null };
      return { exited: answer.exited ?? {}, interruption: answer.interruption ?? undefined };
    },
  };
}
