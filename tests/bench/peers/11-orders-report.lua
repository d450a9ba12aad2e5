-- (k) a typical report program: helper functions, comprehensions,
-- conditionals, sorting + slicing, nested tables.
local tiers = {"gold", "silver", "bronze"}
local customers = {}
for i = 0, 1999 do customers[#customers + 1] = {id = i, name = "cust-" .. i, tier = tiers[i % 3 + 1]} end
local statuses = {"paid", "pending", "refunded", "paid"}
local orders = {}
for i = 0, 39999 do
  local items = {}
  for j = 0, i % 4 do
    items[#items + 1] = {sku = "sku-" .. ((i + j) % 50), qty = j % 3 + 1, price = 5 + (i * j) % 40}
  end
  orders[#orders + 1] = {id = i, customer = (i * 37) % 2000, status = statuses[i % 4 + 1], items = items}
end
local function order_total(o)
  local s = 0
  for _, item in ipairs(o.items) do s = s + item.qty * item.price end
  return s
end
local function classify(total)
  if total > 200 then return "large" elseif total > 50 then return "medium" else return "small" end
end
local by_id = {}
for _, c in ipairs(customers) do by_id[c.id] = c end
local paid = {}
for _, o in ipairs(orders) do
  if o.status == "paid" then
    local t = order_total(o)
    local p = {}
    for k, v in pairs(o) do p[k] = v end
    p.total = t
    p.size = classify(t)
    paid[#paid + 1] = p
  end
end
local per_customer, cids = {}, {}
for _, o in ipairs(paid) do
  if per_customer[o.customer] == nil then cids[#cids + 1] = o.customer end
  per_customer[o.customer] = (per_customer[o.customer] or 0) + o.total
end
table.sort(cids, function(a, b) return per_customer[a] * 10000 + a > per_customer[b] * 10000 + b end)
local top10 = {}
for i = 1, math.min(10, #cids) do
  local cid = cids[i]
  local c = by_id[cid]
  if c ~= nil then
    top10[#top10 + 1] = {name = c.name, tier = c.tier, total = per_customer[cid]}
  else
    top10[#top10 + 1] = {name = "unknown", tier = "none", total = per_customer[cid]}
  end
end
local sizes = {large = 0, medium = 0, small = 0}
for _, o in ipairs(paid) do sizes[o.size] = sizes[o.size] + 1 end
local gold = 0
for _, o in ipairs(paid) do
  local c = by_id[o.customer]
  if c ~= nil and c.tier == "gold" then gold = gold + o.total end
end
print(string.format("report paid=%d large=%d medium=%d small=%d top=%s:%d gold=%d",
  #paid, sizes.large, sizes.medium, sizes.small, top10[1].name, top10[1].total, gold))
