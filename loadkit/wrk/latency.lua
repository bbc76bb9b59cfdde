-- Shared by the load kit's wrk scripts (sign.lua, admit.lua), which load it
-- with dofile from their own directory.

-- uncorrected returns the percentiles ps (and the count) of the latencies
-- wrk measured, in µs, before its correction for coordinated omission. wrk
-- corrects its histogram before done() sees it (stats_correct in wrk.c):
-- with e = runtime / (requests / connections), every sample of n ≥ 2e µs
-- adds one at each of n−e, n−2e, … while above e, as if a client sending at
-- a constant rate had waited behind it. So for m > e the corrected count at m
-- is the measured count at m, m+e, m+2e, …, and measured[m] = corrected[m] −
-- corrected[m+e]. The corrected figures stay the decided ones; these say how
-- much of the tail is the correction.
function uncorrected(latency, duration, requests, connections, ps)
  local corrected, values = {}, {}
  for i = 1, #latency do
    local v, c = latency(i)
    corrected[v] = c
    values[#values + 1] = v
  end
  local per = connections > 0 and math.floor(requests / connections) or 0
  local e = per > 0 and math.floor(duration / per) or math.huge
  local measured, total = {}, 0
  for _, v in ipairs(values) do
    local c = corrected[v]
    if v > e then
      c = c - (corrected[v + e] or 0)
    end
    measured[v] = c
    total = total + c
  end
  local out = {}
  for k, p in ipairs(ps) do
    local rank = math.floor(p / 100 * total + 0.5 + 0.5)
    local seen = 0
    out[k] = values[#values] or 0
    for _, v in ipairs(values) do
      seen = seen + measured[v]
      if seen >= rank then
        out[k] = v
        break
      end
    end
  end
  return out, total
end
