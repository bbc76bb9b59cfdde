-- wrk script for a burst of new signers: every valid partial of the payload
-- sent exactly once, so that each request adds a signer its plan did not
-- have (the wrk counterpart of `closerelaylab load admit`, a lighter
-- generator on the relay's two cores). `closerelaylab load admit --wrk`
-- runs it and reads the relay's count of admitted signers around it:
--
--   PAYLOAD=load-payload.json THREADS=2 CONNECTIONS=64 SEED=1 SUMMARY_JSON=out.json \
--     wrk -t2 -c64 -d60s --timeout 10s -s loadkit/wrk/admit.lua RELAY_URL
--
-- THREADS must be wrk's -t. Every thread shuffles the same list with SEED
-- and takes its own slice of it (the i-th partial goes to thread i mod
-- THREADS), so no two threads send one partial. Within a thread, delay()
-- reserves the next partial before request() takes it: a connection that
-- finds the slice used up waits an hour instead of sending anything, and
-- the thread stops (wrk.thread:stop()) once every request of its slice has
-- its answer. The threads start sending once all of them have their slice
-- (a file beside SUMMARY_JSON counts them), and the last thread to finish
-- sends wrk SIGINT, which ends wrk's -d wait; -d bounds a burst that lost
-- answers.
--
-- The summary counts as wrong every answer that was not 200 (response()
-- reads each status: wrk's own count misses 2xx and 3xx other than 200),
-- every partial sent without an answer or never sent, and wrk's socket
-- errors (a request slower than --timeout among them). Its seconds run from
-- the burst's first request to its last answer (CLOCK_MONOTONIC), not wrk's
-- -d wait.

local ffi = require("ffi")
ffi.cdef [[
struct admit_timespec { long tv_sec; long tv_nsec; };
int clock_gettime(int clk_id, struct admit_timespec *tp);
int getpid(void);
int kill(int pid, int sig);
int usleep(unsigned int usec);
]]
local CLOCK_MONOTONIC, SIGINT = 1, 2

-- latency.lua (beside this script) defines uncorrected().
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "latency.lua")

local ts = ffi.new("struct admit_timespec")
local function now_us()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, ts)
  return tonumber(ts.tv_sec) * 1e6 + tonumber(ts.tv_nsec) / 1e3
end

local threads = tonumber(os.getenv("THREADS") or "")
assert(threads and threads >= 1, "admit.lua: set THREADS to wrk's -t")
local connections = tonumber(os.getenv("CONNECTIONS") or "0")
local summary_path = os.getenv("SUMMARY_JSON")
local done_path = os.getenv("DONE_FILE") or ((summary_path or os.tmpname()) .. ".done")
local ready_path = done_path .. ".ready"

local function lines(path)
  local n, f = 0, io.open(path, "r")
  if f then
    for _ in f:lines() do
      n = n + 1
    end
    f:close()
  end
  return n
end

local function append(path, line)
  local f = assert(io.open(path, "a"))
  f:write(line, "\n")
  f:close()
end

-- all: every valid partial of every published plan ({plan id, partial}), in
-- the order SEED shuffles them to; each thread formats its slice in init,
-- once wrk knows the Host header. The payload's strings are base64 and hex (no
-- quotes, brackets or braces), so string patterns read it; the spare closes
-- (not published) come after the plans and are cut off.
local all, plans = {}, 0
do
  local f = assert(io.open(os.getenv("PAYLOAD") or "load-payload.json", "rb"))
  local s = f:read("*a")
  f:close()
  s = s:match('^(.-),"spare":') or s
  for id, plan in s:gmatch('{"id":"(%x+)"(.-)}') do
    plans = plans + 1
    local list = plan:match('"valid":%[(.-)%]') or ""
    for x in list:gmatch('"([^"]+)"') do
      all[#all + 1] = { id, x }
    end
  end
  assert(#all > 0, "admit.lua: no valid partials in the payload")
  math.randomseed(tonumber(os.getenv("SEED") or "1"))
  for i = #all, 2, -1 do
    local j = math.random(i)
    all[i], all[j] = all[j], all[i]
  end
end

-- The main state: number the threads and remember them for done().
local started = {}
function setup(thread)
  if #started == 0 then
    os.remove(done_path)
    os.remove(ready_path)
  end
  -- More threads than THREADS would share slices: stop wrk before the
  -- extra one starts.
  assert(#started < threads, "admit.lua: wrk runs more threads than THREADS=" .. threads)
  thread:set("index", #started)
  started[#started + 1] = thread
end

-- A thread's state (index is set by setup before init runs).
mine, reserved, sent, received, wrong, first, last, example, unreserved = {}, 0, 0, 0, 0, 0, 0, "", 0
local go = false

local function finish()
  last = now_us()
  append(done_path, index)
  if lines(done_path) >= threads then
    ffi.C.kill(ffi.C.getpid(), SIGINT)
  end
  wrk.thread:stop()
end

function init(_)
  local headers = { ["Content-Type"] = "application/json" }
  for i = index + 1, #all, threads do
    local id, x = all[i][1], all[i][2]
    mine[#mine + 1] = wrk.format("POST", "/api/plan/" .. id .. "/sign", headers, '{"xdr":"' .. x .. '"}')
  end
  all = {}
  append(ready_path, index)
  if #mine == 0 then
    finish()
  end
end

function delay()
  -- wrk starts each thread as soon as it is made, and making the next one
  -- (reading the payload) takes a while: the burst starts once every
  -- thread has its slice, so that it runs at its full connections.
  -- The wait blocks this thread's loop: a delay() that returned a wait
  -- would send when it ran out.
  -- Fewer threads than THREADS never all arrive: after 10 s the burst goes
  -- anyway and done() counts it wrong.
  local deadline = now_us() + 10e6
  while not go do
    go = lines(ready_path) >= threads or now_us() > deadline
    if not go then
      ffi.C.usleep(1000)
    end
  end
  if reserved < #mine then
    reserved = reserved + 1
    return 0
  end
  return 3600 * 1000
end

function request()
  if sent >= reserved then
    -- wrk asks thread 0 for one request at start-up, before any
    -- connection, only to parse it (script_verify_request in script.c):
    -- not a send. Every send comes after delay() reserved it; one that did
    -- not (a connection whose hour ran out) sends nothing new and makes the
    -- burst wrong.
    if go then
      unreserved = unreserved + 1
    end
    return wrk.format("GET", "/api/plan/" .. string.rep("0", 64))
  end
  sent = sent + 1
  if sent == 1 then
    first = now_us()
  end
  return mine[sent]
end

function response(status, _, body)
  received = received + 1
  if status ~= 200 then
    wrong = wrong + 1
    if example == "" then
      example = status .. " " .. (body or ""):match("^[^\n]*"):sub(1, 200)
    end
  end
  if received == #mine then
    finish()
  end
end

-- done writes SUMMARY_JSON in the shape of loadkit.AdmitResult (the
-- admitted count is the caller's to read) and prints one line.
function done(summary, latency, _)
  local requests = #all
  local ran, answered, bad, t0, t1, ex = #started, 0, 0, math.huge, 0, ""
  for _, t in ipairs(started) do
    answered = answered + t:get("received")
    bad = bad + t:get("wrong") + t:get("unreserved")
    local f, l = t:get("first"), t:get("last")
    if f > 0 then
      t0 = math.min(t0, f)
    end
    t1 = math.max(t1, l)
    if ex == "" then
      ex = t:get("example")
    end
  end
  local e = summary.errors
  local socket = e.connect + e.read + e.write + e.timeout
  -- A partial without its answer, or never sent (a thread short), is wrong.
  bad = bad + (requests - answered) + socket
  if ex == "" and requests ~= answered then
    ex = string.format("%d of %d partials answered", answered, requests)
  end
  if ex == "" and socket > 0 then
    ex = string.format("wrk socket errors: connect %d, read %d, write %d, timeout %d", e.connect, e.read, e.write, e.timeout)
  end
  if ran ~= threads then
    bad = math.max(bad, 1)
    ex = string.format("THREADS=%d but wrk ran %d threads", threads, ran)
  end
  local seconds = summary.duration / 1e6
  if t1 > t0 and answered == requests then
    seconds = (t1 - t0) / 1e6
  end
  local m = uncorrected(latency, summary.duration, summary.requests, connections, { 50, 99 })
  local p = function(q) return latency:percentile(q) / 1000 end
  local json = string.format(
    '{"generator":"wrk","threads":%d,"connections":%d,"plans":%d,"requests":%d,"wrong":%d,"seconds":%.6f,"rps":%.3f,' ..
    '"p50":%.3f,"p95":%.3f,"p99":%.3f,"max":%.3f,"p50Uncorrected":%.3f,"p99Uncorrected":%.3f,"admitted":-1,"example":"%s"}',
    ran, connections, plans, requests, bad, seconds, requests / seconds,
    p(50), p(95), p(99), latency.max / 1000, m[1] / 1000, m[2] / 1000, (ex:gsub('[%c"\\]', " ")))
  io.write(string.format("wrk admit: %d partials over %d plans, %d answered, %d wrong, in %.3f s: %.0f/s  p50 %.2f ms  p99 %.2f ms  max %.1f ms (uncorrected p50 %.2f, p99 %.2f)\n",
    requests, plans, answered, bad, seconds, requests / seconds, p(50), p(99), latency.max / 1000, m[1] / 1000, m[2] / 1000))
  if summary_path then
    local f = assert(io.open(summary_path, "w"))
    f:write(json)
    f:close()
  end
  os.remove(done_path)
  os.remove(ready_path)
end
