-- (d) group-by + per-group sums over 100k records.
local regions = {"north", "south", "east", "west"}
local rows = {}
for i = 0, 99999 do
  rows[#rows + 1] = {id = i, amount = (i * 13) % 1000, region = regions[i % 4 + 1], cat = (i * 17) % 50}
end
local function group_by(key)
  local groups, order = {}, {}
  for _, r in ipairs(rows) do
    local k = r[key]
    local g = groups[k]
    if g == nil then g = {}; groups[k] = g; order[#order + 1] = k end
    g[#g + 1] = r
  end
  return groups, order
end
local by_cat, cat_order = group_by("cat")
local max_sum, total = 0, 0
for _, k in ipairs(cat_order) do
  local s = 0
  for _, r in ipairs(by_cat[k]) do s = s + r.amount end
  if s > max_sum then max_sum = s end
  total = total + s
end
local by_region, region_order = group_by("region")
local keys = {}
for _, k in ipairs(region_order) do keys[#keys + 1] = k end
table.sort(keys)
local counts = {}
for _, k in ipairs(keys) do counts[#counts + 1] = tostring(#by_region[k]) end
local north = 0
for _, r in ipairs(by_region["north"]) do north = north + r.amount end
print(string.format("groupby cats=%d total=%d max=%d regions=%s north=%d",
  #cat_order, total, max_sum, table.concat(counts, ","), north))
