-- (b) tight numeric loop, 1e6 iterations.
local total = 0
for i = 0, 999999 do
  total = total + (i * i) % 7
end
print("loop1e6=" .. total)
