-- (c) build 100k record tables, then a filter/map/reduce pipeline.
local cats = {"a", "b", "c"}
local rows = {}
for i = 0, 99999 do
  rows[#rows + 1] = {id = i, price = (i * 7) % 100, cat = cats[i % 3 + 1]}
end
local expensive = {}
for _, r in ipairs(rows) do
  if r.price > 50 then expensive[#expensive + 1] = r end
end
local total = 0
for _, r in ipairs(expensive) do total = total + r.price end
local n_b = 0
for _, r in ipairs(expensive) do
  if r.cat == "b" then n_b = n_b + 1 end
end
local with_net = {}
for _, r in ipairs(rows) do
  if r.cat == "a" then
    local c = {}
    for k, v in pairs(r) do c[k] = v end
    c.net = r.price - r.id % 5
    with_net[#with_net + 1] = c
  end
end
local discounted = 0
for _, r in ipairs(with_net) do discounted = discounted + r.net end
print(string.format("pipeline rows=%d expensive=%d total=%d b=%d net-a=%d",
  #rows, #expensive, total, n_b, discounted))
