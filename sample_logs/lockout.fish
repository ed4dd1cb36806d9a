Title: A lockout, and the ask that breaks it
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2S 3S 9H 10H 2D 3D 9C 10C
Hand Dev: 9S 10S JS 4H 5H 4D 2C 3C
Hand Ben: 5S JH QH 5D 9D 10D 4C 5C
Hand Eli: 7S QS KS 6H 7H JD QD 6C
Hand Cara: 6S AS 2H 3H KH 6D 7C JC
Hand Fay: 4S AH KD AD 7D QC KC AC

1. Fay asks Cara for 2S: no  # Fay holds a low spade; neither Fay nor Cara has 2S
2. Cara asks Dev for 2S: no  # Cara holds a low spade; Dev has no 2S either
3. Dev asks Anna for 5D: no
4. Anna asks Fay for 4S: yes  # Fay showed she had a low spade; Anna tries her and gets 4S
5. Anna asks Dev for 5S: no
6. Dev asks Cara for QS: no
7. Cara asks Eli for 9H: no
8. Eli asks Ben for 5S: yes  # Eli held a low spade; 4S was already with Anna, so not that one
9. Eli asks Cara for 6S: yes
10. Eli asks Anna for 3S: yes  # Eli knows Anna has 4S but goes first for the cards he cannot place
11. Eli asks Ben for 2S: no  # the guess fails, and it tells everyone where every low spade is
# Eli asked for 5S, 6S, 3S and 2S, and 4S was Anna's, so the low spade he held before event 8
# is 7S: Eli has 3S 5S 6S 7S.
# 2S is not with Fay or Cara (event 1), Dev (event 2), Eli or Ben (event 11): Anna has it, with 4S.
# This is public. Anna (2S 4S) and Eli (3S 5S 6S 7S) each know the whole book and hold part of it:
# whoever gets the turn first asks for the rest and claims. Ben, on turn, must not ask Eli.
12. Ben asks Eli for 2C: no  # Ben breaks the lockout: the failed ask hands Eli the turn
13. Eli asks Anna for 2S: yes
14. Eli asks Anna for 4S: yes
15. Eli claims low-spades: Eli 2S 3S 4S 5S 6S 7S: correct  # had Ben asked Dev or Fay, neither holds a low spade to ask for
