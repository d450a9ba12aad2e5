-- (g) build a 50k-key table, then update and merge it.
local m = {}
for i = 0, 49999 do m["k" .. i] = {n = i, hits = 0} end
for i = 0, 49999 do
  local e = m["k" .. ((i * 31) % 50000)]
  e.hits = e.hits + 1
end
local extra = {}
for i = 0, 9999 do extra["x" .. i] = {n = i, hits = 1} end
local m3 = {}
for k, v in pairs(m) do m3[k] = v end
for k, v in pairs(extra) do m3[k] = v end
local buckets, nb = {}, 0
for i = 0, 49999 do
  local b = i % 97
  if buckets[b] == nil then nb = nb + 1 end
  buckets[b] = (buckets[b] or 0) + 1
end
local keys, hits, n = 0, 0, 0
for _, v in pairs(m3) do keys = keys + 1; hits = hits + v.hits; n = n + v.n end
print(string.format("assoc keys=%d hits=%d n=%d buckets=%d b0=%d", keys, hits, n, nb, buckets[0]))
