-- (e) sort on 100k records (numeric key asc, numeric key desc, string key).
-- table.sort is not stable: ties are broken by position, as a stable sort.
local rows = {}
for i = 0, 99999 do
  rows[#rows + 1] = {id = i, score = (i * 7919) % 100003, name = "n" .. ((i * 31) % 100000), at = i}
end
local function sorted(cmp)
  local c = {}
  for i, r in ipairs(rows) do c[i] = r end
  table.sort(c, cmp)
  return c
end
local asc = sorted(function(a, b) if a.score ~= b.score then return a.score < b.score end return a.at < b.at end)
local desc = sorted(function(a, b) if a.score ~= b.score then return a.score > b.score end return a.at < b.at end)
local by_name = sorted(function(a, b) if a.name ~= b.name then return a.name < b.name end return a.at < b.at end)
print(string.format("sortby first=%d last=%d top=%d name0=%s nameN=%s",
  asc[1].id, asc[#asc].id, desc[1].id, by_name[1].name, by_name[#by_name].name))
