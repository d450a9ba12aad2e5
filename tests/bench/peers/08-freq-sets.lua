-- (h) frequencies, distinct and set operations over 200k numbers.
local xs = {}
for i = 0, 199999 do xs[#xs + 1] = (i * 7919) % 1000 end
local freqs, nfreq, maxf = {}, 0, 0
for _, x in ipairs(xs) do
  local f = freqs[x]
  if f == nil then nfreq = nfreq + 1; f = 0 end
  freqs[x] = f + 1
end
for _, f in pairs(freqs) do if f > maxf then maxf = f end end
local seen, uniq = {}, {}
for _, x in ipairs(xs) do
  if not seen[x] then seen[x] = true; uniq[#uniq + 1] = x end
end
local evens, threes = {}, {}
for _, x in ipairs(xs) do if x % 2 == 0 then evens[x] = true end end
for _, x in ipairs(xs) do if x % 3 == 0 then threes[x] = true end end
local function size(s) local n = 0; for _ in pairs(s) do n = n + 1 end; return n end
local both, either, only = {}, {}, {}
for x in pairs(evens) do if threes[x] then both[x] = true end end
for x in pairs(evens) do either[x] = true end
for x in pairs(threes) do either[x] = true end
for x in pairs(evens) do if not threes[x] then only[x] = true end end
local hits = 0
for _, x in ipairs(xs) do if both[x] then hits = hits + 1 end end
print(string.format("sets freq=%d maxf=%d distinct=%d inter=%d union=%d diff=%d hits=%d",
  nfreq, maxf, #uniq, size(both), size(either), size(only), hits))
