(* Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string. *)
let wrong = false
let numerals = [| ""; ""; "雙"; "參"; "肆"; "伍"; "陸"; "柒"; "捌"; "玖"; "拾" |]

let count line pat =
  let n = ref 0 and k = String.length pat in
  for i = 0 to String.length line - k do
    if String.sub line i k = pat then incr n
  done;
  !n

let () =
  let b = Array.init 7 (fun _ -> Scanf.scanf " %s" (fun s -> s)) in
  let lines = ref [] in
  for r = 0 to 6 do
    lines := b.(r) :: String.init 7 (fun c -> b.(c).[r]) :: !lines
  done;
  if not wrong then
    for start = -6 to 6 do
      let down = Buffer.create 7 and anti = Buffer.create 7 in
      for r = 0 to 6 do
        if r - start >= 0 && r - start < 7 then Buffer.add_char down b.(r).[r - start];
        if start + 6 - r >= 0 && start + 6 - r < 7 then Buffer.add_char anti b.(r).[start + 6 - r]
      done;
      lines := Buffer.contents down :: Buffer.contents anti :: !lines
    done;
  let dead = ref 0 and live4 = ref 0 and live3 = ref 0 in
  List.iter (fun l ->
    let len = String.length l in
    if len >= 5 then begin
      if String.sub l 0 5 = "oooox" then incr dead;
      if String.sub l (len - 5) 5 = "xoooo" then incr dead;
      live4 := !live4 + count l "xoooox";
      live3 := !live3 + count l "xooox" + count l "xoxoox" + count l "xooxox"
    end) !lines;
  let part k name = if k > 0 then numerals.(k) ^ name else "" in
  print_string (part !dead "死四" ^ part !live4 "活四" ^ part !live3 "活三" ^ "\n")
