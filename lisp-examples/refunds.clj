;; Tools that act (docs/tools.md): the lookups run together (pmap), each
;; refund waits for approval, runs once, and a denied one is caught.
(def orders (pmap tool/find-order data/orders))
(def damaged (filter #(= "damaged" (:status %)) orders))
(def receipts
  (vec (for [o damaged]
         (try (tool/refund-order (:id o) (min 100 (:total o)))
              (catch Exception e {:order (:id o) :denied (ex-message e)})))))
(return receipts)
