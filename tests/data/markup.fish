Title: <script>alert("title")</script> & <b>friends</b>
Event: Club night | table *2*
Date: 2026-11-27
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: QH JC 2H 5H QS 4C 6C 9H
Hand Dev: AS 3S 4H 7S 10C 5S 6D 2S
X-Source: <img src=x onerror="alert('x-field')">

# <b>opening</b> [link](http://example.com) _under_
1. Anna asks Dev for AS: yes  # <script>alert("comment")</script>
2. Anna asks Dev for AH: no
3. Dev asks Cara for AC: no
4. Cara asks Fay for 6S: yes
5. Cara asks Fay for 3D: yes
6. Cara asks Eli for QS: no
7. Eli asks Anna for 4H: no
8. Anna asks Dev for 4H: yes  # a | pipe & `code`
9. Anna asks Fay for 9C: yes
10. Anna asks Eli for 3H: yes
11. Anna claims low-hearts: Anna 2H 3H 4H 5H, Cara 6H, Ben 7H: correct
12. Anna asks Eli for KS: no
13. Eli asks Anna for 10C: no
14. Anna asks Fay for 5C: no
