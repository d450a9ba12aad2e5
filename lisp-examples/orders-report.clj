;; A report in the style LLMs write: group, aggregate, sort, print, return.
;; Run: cargo run --release -- run lisp-examples/orders-report.clj --data orders=lisp-examples/orders.json
(defn total [order] (* (:qty order) (:price order)))

(def by-status (group-by :status data/orders))

(doseq [[status orders] by-status]
  (println status (count orders) "orders," (reduce + (map total orders)) "total"))

(def top (->> data/orders
              (filter #(= (:status %) "shipped"))
              (sort-by total >)
              (take 2)
              (mapv :id)))

{:top-shipped top
 :revenue (reduce + (map total data/orders))}
