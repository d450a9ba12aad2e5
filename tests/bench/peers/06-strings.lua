-- (f) string building, joining, splitting and case conversion over 50k items.
local kinds = {"alpha", "beta", "gamma", "delta"}
local words = {}
for i = 0, 49999 do words[#words + 1] = "item-" .. i .. "-" .. kinds[i % 4 + 1] end
local text = table.concat(words, "\n")
local lines = {}
for line in string.gmatch(text, "[^\n]+") do lines[#lines + 1] = line end
local upper = {}
for i, s in ipairs(lines) do upper[i] = string.upper(s) end
local n_gamma, total_len, n_prefixed = 0, 0, 0
for _, s in ipairs(upper) do
  if string.find(s, "GAMMA", 1, true) then n_gamma = n_gamma + 1 end
end
for _, s in ipairs(upper) do total_len = total_len + #s end
local replaced = {}
for i, s in ipairs(upper) do replaced[i] = (string.gsub(s, "-", "_")) end
local csv = table.concat(replaced, ",")
for _, s in ipairs(upper) do
  if string.sub(s, 1, 6) == "ITEM-4" then n_prefixed = n_prefixed + 1 end
end
print(string.format("strings lines=%d gamma=%d len=%d csv=%d prefixed=%d sub=%s",
  #lines, n_gamma, total_len, #csv, n_prefixed, string.sub(upper[12346], 1, 10)))
