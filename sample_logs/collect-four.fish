Title: Collect four: count the card your teammate started with
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2H 2S 9S 9H 2D 9D 2C 9C
Hand Dev: 3H 6H 3S 10S 10H 3D 10D 3C
Hand Ben: 7H 4S JS JH 4D 4C 10C JC
Hand Eli: 4H 5S QS QH 5D JD 5C QC
Hand Cara: 6S KS KH 6D QD 6C KC 7S
Hand Fay: 5H AS AH 7D KD AD 7C AC

# Ben was dealt 7H and watches his teammate Anna go after the low hearts.
1. Anna asks Dev for 3H: yes  # to ask, Anna must already hold a low heart other than 3H
2. Anna asks Eli for 4H: yes
3. Anna asks Fay for 5H: yes
4. Anna asks Dev for 6H: yes  # Anna has collected four low hearts in front of everyone
# Anna asked for 3H, 4H, 5H and 6H, so none of them was the low heart she started with:
# that card was 2H or 7H. Ben holds 7H, so in Ben's view Anna holds 2H 3H 4H 5H 6H.
# The public view only knows that Anna holds 2H or 7H.
5. Anna asks Eli for 7H: no  # Anna does not know her teammate has it; Eli takes the turn
6. Eli asks Ben for QD: no  # the turn comes to Ben
7. Ben claims low-hearts: Anna 2H 3H 4H 5H 6H, Ben 7H: correct  # Ben counts the card Anna started with
