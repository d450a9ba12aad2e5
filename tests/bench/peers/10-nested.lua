-- (j) deep nested data: get_in / update_in / assoc_in helpers on a 4-level org tree.
local function by_index(n, f)
  local t = {}
  for i = 0, n - 1 do t[i] = f(i) end
  return t
end
local function get_in(d, path, default)
  for _, k in ipairs(path) do
    if type(d) ~= "table" or d[k] == nil then return default end
    d = d[k]
  end
  return d
end
local function update_in(d, path, f)
  for i = 1, #path - 1 do d = d[path[i]] end
  d[path[#path]] = f(d[path[#path]])
end
local function assoc_in(d, path, value)
  for i = 1, #path - 1 do
    local k = path[i]
    if d[k] == nil then d[k] = {} end
    d = d[k]
  end
  d[path[#path]] = value
end
local function make_member(d, t, m) return {id = m, salary = 10 * (d + t + m), skills = {clj = m % 5}} end
local function make_team(d, t) return {id = t, members = by_index(10, function(m) return make_member(d, t, m) end)} end
local function make_dept(d) return {id = d, teams = by_index(10, function(t) return make_team(d, t) end)} end
local org = {name = "acme", depts = by_index(10, make_dept)}
local paths = {}
for i = 0, 29999 do paths[#paths + 1] = {"depts", i % 10, "teams", i % 7, "members", i % 9, "salary"} end
local s1 = 0
for _, p in ipairs(paths) do s1 = s1 + get_in(org, p) end
for _, p in ipairs(paths) do update_in(org, p, function(x) return x + 1 end) end
local s2 = 0
for _, p in ipairs(paths) do s2 = s2 + get_in(org, p) end
for i = 0, 9999 do
  assoc_in(org, {"depts", i % 9, "teams", i % 8, "members", i % 7, "skills", "clj"}, i)
end
local skill_sum = 0
for i = 0, 999 do
  skill_sum = skill_sum + get_in(org, {"depts", i % 10, "teams", i % 10, "members", i % 10, "skills", "clj"}, 0)
end
local missing = 0
for i = 0, 19 do
  if get_in(org, {"depts", i, "teams", 0, "name"}) == nil then missing = missing + 1 end
end
local deep = get_in(org, {"depts", 8, "teams", 7, "members", 6, "skills", "clj"})
print(string.format("nested s1=%d s2=%d skills=%d missing=%d deep=%d", s1, s2, skill_sum, missing, deep))
