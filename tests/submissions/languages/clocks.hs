-- Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out.
import Data.Bits (shiftR, (.&.))
import Data.List (foldl')

wrong :: Bool
wrong = False

moves :: [String]
moves = ["ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"]

main :: IO ()
main = do
  text <- readFile "clocks.in"
  let clock = map (\t -> read t `div` 3 `mod` 4) (take 9 (words text)) :: [Int]
      by = [[m | m <- [0 .. 8], toEnum (65 + i) `elem` (moves !! m)] | i <- [0 .. 8]]
      digit code m = (code `shiftR` (2 * m)) .&. 3
      solved code = and [(c + sum [digit code m | m <- ms]) `mod` 4 == 0 | (c, ms) <- zip clock by]
      total code = sum [digit code m | m <- [0 .. 8]]
      pick (best, bestTotal) code
        | total code < bestTotal && solved code = (code, total code)
        | otherwise = (best, bestTotal)
      (best, _) = foldl' pick (0, 100 :: Int) [0 .. 262143 :: Int]
      chosen = concat [replicate (digit best m) (m + 1) | m <- [0 .. 8]]
      shown = if wrong then reverse chosen else chosen
  writeFile "clocks.out" (unwords (map show shown) ++ "\n")
