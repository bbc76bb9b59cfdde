-- wrk script for POST /api/plan/{id}/sign: a lighter load generator than k6
-- (C and LuaJIT instead of a JavaScript VM per connection), for the issue's
-- reference figures, which were taken with wrk. Optional: bench-load runs it
-- when wrk is installed (Debian: apt-get install wrk).
--
--   PAYLOAD=load-payload.json KIND=replay CONNECTIONS=64 SUMMARY_JSON=out.json \
--     wrk -t2 -c64 -d15s -s loadkit/wrk/sign.lua RELAY_URL
--
-- (RELAY_URL is the relay= of `closerelaylab load local`'s ready line; the
-- payload's path is relative to the directory wrk runs in.)
--
-- KIND=replay sends plan TARGET's (default the first) valid and forged
-- partials, which must already be admitted (the k6 replay scenario's setup
-- admits them); KIND=fresh sends every plan's fresh partials. Bodies are read
-- from the payload with string patterns: its strings are base64 and hex, so
-- they hold no quotes, brackets or braces.

-- latency.lua (beside this script) defines uncorrected().
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "latency.lua")

local kind = os.getenv("KIND") or "replay"
local target = tonumber(os.getenv("TARGET") or "0")

local function read_payload()
  local f = assert(io.open(os.getenv("PAYLOAD") or "load-payload.json", "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

local function partials(plan, field)
  local list = plan:match('"' .. field .. '":%[(.-)%]')
  local out = {}
  if list then
    for x in list:gmatch('"([^"]+)"') do
      out[#out + 1] = x
    end
  end
  return out
end

local requests = {}

function init(args)
  local s = read_payload()
  local headers = { ["Content-Type"] = "application/json" }
  local i = 0
  for id, plan in s:gmatch('{"id":"(%x+)"(.-)}') do
    local fields = {}
    if kind == "replay" and i == target then
      fields = { "valid", "forged" }
    elseif kind == "fresh" then
      fields = { "fresh" }
    end
    for _, field in ipairs(fields) do
      for _, x in ipairs(partials(plan, field)) do
        requests[#requests + 1] = wrk.format("POST", "/api/plan/" .. id .. "/sign", headers, '{"xdr":"' .. x .. '"}')
      end
    end
    i = i + 1
  end
  assert(#requests > 0, "no " .. kind .. " partials in the payload")
end

function request()
  return requests[math.random(#requests)]
end

-- done prints one line and writes SUMMARY_JSON for loadkit.ReadWrk. "wrong"
-- counts every request that did not get its 200: wrk's status errors (any
-- answer above 399) and its connect, read, write and timeout errors.
function done(summary, latency, _)
  local seconds = summary.duration / 1e6
  local connections = tonumber(os.getenv("CONNECTIONS") or "0")
  local wrong = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  local m = uncorrected(latency, summary.duration, summary.requests, connections, { 50, 99 })
  local json = string.format(
    '{"generator":"wrk","scenario":"%s","connections":%d,"seconds":%.3f,"requests":%d,"wrong":%d,' ..
    '"p50":%.3f,"p95":%.3f,"p99":%.3f,"max":%.3f,"p50Uncorrected":%.3f,"p99Uncorrected":%.3f}',
    kind, connections, seconds, summary.requests, wrong,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    m[1] / 1000, m[2] / 1000)
  io.write(string.format("wrk %s: %d req, %.0f req/s  p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.1f ms  (%d not 200); uncorrected p50 %.2f ms  p99 %.2f ms\n",
    kind, summary.requests, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000, wrong, m[1] / 1000, m[2] / 1000))
  local path = os.getenv("SUMMARY_JSON")
  if path then
    local f = assert(io.open(path, "w"))
    f:write(json)
    f:close()
  end
end
