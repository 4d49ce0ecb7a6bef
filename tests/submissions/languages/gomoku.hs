-- Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
import Data.List (isPrefixOf, isSuffixOf, tails)
import qualified Data.ByteString.Char8 as B
import qualified Data.Text as T
import qualified Data.Text.Encoding as E

wrong :: Bool
wrong = False

numerals :: [String]
numerals = ["", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"]

count :: String -> String -> Int
count pat line = length (filter (pat `isPrefixOf`) (tails line))

main :: IO ()
main = do
  input <- B.getContents
  let b = take 7 (words (B.unpack input))
      at r c = (b !! r) !! c
      inside k = k >= 0 && k < 7
      rows = b ++ [[at c r | c <- [0 .. 6]] | r <- [0 .. 6]]
      diags = concat [[[at r (r - s) | r <- [0 .. 6], inside (r - s)],
                       [at r (s + 6 - r) | r <- [0 .. 6], inside (s + 6 - r)]] | s <- [-6 .. 6]]
      lines' = filter ((>= 5) . length) (rows ++ (if wrong then [] else diags))
      dead = sum [fromEnum ("oooox" `isPrefixOf` l) + fromEnum ("xoooo" `isSuffixOf` l) | l <- lines']
      live4 = sum (map (count "xoooox") lines')
      live3 = sum [count "xooox" l + count "xoxoox" l + count "xooxox" l | l <- lines']
      part k name = if k > 0 then (numerals !! k) ++ name else ""
      out = part dead "死四" ++ part live4 "活四" ++ part live3 "活三"
  B.putStr (E.encodeUtf8 (T.pack (out ++ "\n")))
